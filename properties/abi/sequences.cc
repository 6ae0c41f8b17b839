// abi.call_sequences: the ABI's contract holds for every call of a
// sequence made in ONE process, not only for a process's first call: a
// kernel may keep workspaces, caches and first-call set-up between calls,
// and every other property calls a fresh sandbox child. Kernel backends only
// (registry kind new).
//
// Hypotheses: 1..kMaxCalls calls, each a valid problem (RegimeHolds), drawn
// with RapidCheck's state-machine testing (rc::state): a command is a call
// of a new shape (the scalar-arguments regime: scale over its whole range,
// causal with every length relation, lse NULL or not) or a call of the
// previous call's shape with new values and arguments (a cache keyed on the
// shape); a failing sequence shrinks to the shortest one (commands dropped
// first, then each call shrunk). Conclusion: each call's out and lse within
// their bounds of the reference (regime_check.h). A failing call is run
// again alone in a fresh process, and the message says whether it is right
// there (the kernel keeps state between calls) or wrong alone too.
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <algorithm>
#include <sstream>

#include "properties/operator/attention_claims.h"
#include "properties/operator/kernel_backend.h"
#include "properties/operator/regime_check.h"
#include "properties/operator/regime_gen.h"

namespace attnprop::ksuite {
namespace ATTNPROP_UNIT {

constexpr int64_t kMaxCalls = 8;

/// What the commands know of the process so far.
struct SeqModel {
  int64_t calls = 0;
  Case last;  // the previous call's problem
};
struct Recorder {
  std::vector<Case> calls;
};
using SeqCommand = rc::state::Command<SeqModel, Recorder>;

/// A call of a new shape.
struct NewCall : SeqCommand {
  Case call;
  NewCall(const SeqModel& m, InputKind in) : call(*RegimeGen(in, Regime::kScalars)) { RC_PRE(m.calls < kMaxCalls); }
  void apply(SeqModel& m) const override { ++m.calls, m.last = call; }
  void run(const SeqModel&, Recorder& r) const override { r.calls.push_back(call); }
  void show(std::ostream& os) const override { os << "call of a new shape"; }
};

/// A call of the previous call's shape, with new values and arguments.
struct SameShapeCall : SeqCommand {
  Case call;
  SameShapeCall(const SeqModel& m, InputKind in) {
    RC_PRE(m.calls >= 1 && m.calls < kMaxCalls);
    const Problem p = Problem::FromCase(m.last);
    const double scale = *rc::gen::element(0.125, -0.5, 1.0);
    const int64_t causal = *rc::gen::element<int64_t>(0, 1), lse = *rc::gen::element<int64_t>(1, 0);
    const auto seed = static_cast<uint64_t>(*rc::gen::noShrink(rc::gen::arbitrary<int64_t>()));
    call = SeededProblem(in.dtype, p.batch, p.t_q, p.t_k, p.d_k, p.d_v, causal, scale, lse, seed);
  }
  void apply(SeqModel& m) const override { ++m.calls, m.last = call; }
  void run(const SeqModel&, Recorder& r) const override { r.calls.push_back(call); }
  void show(std::ostream& os) const override { os << "call of the previous shape"; }
};

/// Field `name` of call k (1-based) in the sequence's case: "Q_3".
std::string Field(const char* name, int64_t k) { return std::string(name) + "_" + std::to_string(k); }

Case CallOf(const Case& c, int64_t k) {
  return Case()
      .Int("batch", c.GetInt(Field("batch", k)))
      .Int("causal", c.GetInt(Field("causal", k)))
      .Scalar("scale", c.GetScalar(Field("scale", k)))
      .Int("lse", c.GetInt(Field("lse", k)))
      .Matrix("Q", c.GetMatrix(Field("Q", k)))
      .Matrix("K", c.GetMatrix(Field("K", k)))
      .Matrix("V", c.GetMatrix(Field("V", k)));
}

/// One call of the sequence: it succeeded, and its outputs are within their bounds.
void CheckCall(const Operator& op, const Problem& p, const CallSpec& spec, const CallResult& r, const std::string& what) {
  RequireSuccess(r, what);
  ExpectOutputsNearCertifiedReference(p, op, r.out[0], spec.want_lse ? &r.lse[0] : nullptr, what);
}

struct CallSequences : AttentionClaim<CallSequences>, ClaimId<"abi.call_sequences"> {
  static rc::Gen<Case> Gen(InputKind in) {
    auto commands = rc::state::gen::commands(SeqModel{}, [in](const SeqModel& m) {
      return rc::state::gen::execOneOfWithArgs<NewCall, SameShapeCall>()(m, in);
    });
    return rc::gen::map(rc::gen::resize(kMaxCalls + 2, commands), [](const rc::state::Commands<SeqCommand>& cmds) {
      Recorder r;
      rc::state::runAll(cmds, SeqModel{}, r);
      Case c;
      c.Int("calls", static_cast<int64_t>(r.calls.size()));
      for (size_t n = 0; n < r.calls.size(); ++n) {
        const int64_t k = static_cast<int64_t>(n) + 1;
        const Case& one = r.calls[n];
        c.Int(Field("batch", k), one.GetInt("batch"))
            .Int(Field("causal", k), one.GetInt("causal"))
            .Scalar(Field("scale", k), one.GetScalar("scale"))
            .Int(Field("lse", k), one.GetInt("lse"))
            .Matrix(Field("Q", k), one.GetMatrix("Q"))
            .Matrix(Field("K", k), one.GetMatrix("K"))
            .Matrix(Field("V", k), one.GetMatrix("V"));
      }
      return c;
    });
  }
  // 1 <= calls <= kMaxCalls, each call a valid problem (RegimeHolds).
  static bool Holds(InputKind in, const Case& c) {
    const int64_t n = c.GetInt("calls");
    if (n < 1 || n > kMaxCalls) return false;
    for (int64_t k = 1; k <= n; ++k)
      if (!RegimeHolds(in, CallOf(c, k))) return false;
    return true;
  }
  // Each call's dimensions its own (batch_1, t_q_1, ...): a shape edit
  // changes one call.
  static CaseDims Dims(const Case& c) {
    CaseDims d(c);
    for (int64_t k = 1; k <= kMaxCalls; ++k) {
      const std::string batch = Field("batch", k);
      const auto& f = c.fields();
      if (std::none_of(f.begin(), f.end(), [&](const auto& p) { return p.first == batch; })) break;
      Problem::DeclareDims(d, "_" + std::to_string(k));
    }
    return d;
  }
  static void Check(const Operator& op, const Case& c) {
    const int64_t n = c.GetInt("calls");
    RC_PRE(n >= 1);
    std::vector<Problem> problems;
    std::vector<CallSpec> specs;
    for (int64_t k = 1; k <= n; ++k) {
      const Case one = CallOf(c, k);
      problems.push_back(Problem::FromCase(one));
      CallSpec spec;
      spec.want_lse = one.GetInt("lse") == 1;
      specs.push_back(spec);
    }
    const std::vector<CallResult> results = CallSequence(op, problems, specs);
    for (size_t k = 0; k < problems.size(); ++k) {
      const std::string what = "call " + std::to_string(k + 1) + " of " + std::to_string(n) + " in one process";
      try {
        CheckCall(op, problems[k], specs[k], results[k], what);
      } catch (const rc::detail::CaseResult& failure) {
        if (failure.type != rc::detail::CaseResult::Type::Failure || k == 0) throw;
        // Is the same call right alone, in a fresh process?
        bool alone_ok = true;
        try {
          CheckCall(op, problems[k], specs[k], Call(op, problems[k], specs[k]), "alone");
        } catch (const rc::detail::CaseResult&) {
          alone_ok = false;
        }
        RC_FAIL(failure.description +
                (alone_ok ? "; the same call alone in a fresh process is right: state kept from the earlier calls "
                            "in the process (a workspace, a cache, a first-call set-up) changed it"
                          : "; the same call is wrong alone in a fresh process too"));
      }
    }
  }
};
ATTNPROP_REGISTER(CallSequences, KernelF32, KernelF64);

}  // namespace
}  // namespace attnprop::ksuite
