#include "properties/operator/call.h"

#include <rapidcheck.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>

#include "model/attention.h"
#include "properties/operator/half_format.h"

namespace attnprop::ksuite {
namespace {

void Store(DType t, const Exact& e, unsigned char* dst) {
  const double d = e.ToDouble();
  if (IsHalf(t)) {  // EncodeHalf throws on a value the format does not hold
    const uint16_t bits = EncodeHalf(t == DType::kBF16 ? kBF16 : kF16, d);
    std::memcpy(dst, &bits, 2);
  } else if (t == DType::kF32) {
    const float f = static_cast<float>(d);
    if (static_cast<double>(f) != d && !std::isnan(d))
      throw std::logic_error("kernel suite: input " + e.ToString() + " is not exact in float (generator bug)");
    std::memcpy(dst, &f, 4);
  } else {
    std::memcpy(dst, &d, 8);
  }
}

double Load(DType t, const unsigned char* src) {
  if (IsHalf(t)) {
    uint16_t bits;
    std::memcpy(&bits, src, 2);
    return DecodeHalf(t == DType::kBF16 ? kBF16 : kF16, bits);
  }
  if (t == DType::kF32) {
    float f;
    std::memcpy(&f, src, 4);
    return static_cast<double>(f);
  }
  double d;
  std::memcpy(&d, src, 8);
  return d;
}

void Mutate(attnprop_attention_args* a, Mutation m) {
  switch (m) {
    case Mutation::kNone: case Mutation::kCount: break;
    case Mutation::kNullQ: a->q = nullptr; break;
    case Mutation::kNullK: a->k = nullptr; break;
    case Mutation::kNullV: a->v = nullptr; break;
    case Mutation::kNullOut: a->out = nullptr; break;
    case Mutation::kBatch0: a->batch = 0; break;
    case Mutation::kTq0: a->t_q = 0; break;
    case Mutation::kTk0: a->t_k = 0; break;
    case Mutation::kDk0: a->d_k = 0; break;
    case Mutation::kDv0: a->d_v = 0; break;
    case Mutation::kNegativeTk: a->t_k = -1; break;
    case Mutation::kStructSize0: a->struct_size = 0; break;
    case Mutation::kStructSizeShort: a->struct_size = sizeof(attnprop_attention_args) - 8; break;
    case Mutation::kScaleNan: a->scale = std::numeric_limits<double>::quiet_NaN(); break;
    case Mutation::kScaleInf: a->scale = std::numeric_limits<double>::infinity(); break;
    case Mutation::kCausal2: a->causal = 2; break;
    case Mutation::kCausalNegative: a->causal = -1; break;
  }
}

// Per kernel and entry point, over the run: calls made, finished, timed out.
struct KernelHealth {
  int calls = 0;
  int finished = 0;
  int timeouts = 0;
  bool late_seen = false;  // an output changed after a call returned: check every call from now on
};
// A kernel whose first calls all time out is not called again: one
// diagnosis ("every call timed out"), not one timeout per case and shrink step.
constexpr int kTimeoutsBeforeGivingUp = 2;
// A kernel that leaves threads running after a call has its outputs compared
// again after kLateCheckMs: on its first kLateCheckedCalls calls, then on
// every kLateCheckEvery-th (a thread pool costs that wait per checked call),
// and on every call once one changed.
constexpr int kLateCheckMs = 20;
constexpr int kLateCheckedCalls = 32;
constexpr int kLateCheckEvery = 16;

KernelHealth& HealthOf(const Operator& op) {
  static std::map<std::pair<const KernelLibrary*, DType>, KernelHealth> health;
  return health[{op.library, op.dtype}];
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

/// The model in scalar type S, in process: out and lse of every item.
template <class S>
CallResult CallModel(const Problem& p, const CallSpec& spec) {
  if (spec.mutation != Mutation::kNone) throw std::logic_error("argument mutations apply to kernels only");
  CallResult res;
  std::vector<Mpfr> out(static_cast<size_t>(p.batch * p.t_q * p.d_v)), lse(static_cast<size_t>(p.batch * p.t_q));
  const S scale = p.scale.As<S>();
  for (int64_t b = 0; b < p.batch; ++b) {
    const AttentionResult<S> r =
        Attention<S>(Problem::Block(p.q, b, p.t_q).As<S>(), Problem::Block(p.k, b, p.t_k).As<S>(),
                     Problem::Block(p.v, b, p.t_k).As<S>(), scale, p.causal ? Mask::Causal() : Mask::None());
    for (int64_t i = 0; i < p.t_q; ++i) {
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      for (int64_t c = 0; c < p.d_v; ++c) out[row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c)] = Mpfr(r.out(i, c));
      lse[row] = Mpfr(r.lse[i]);
    }
  }
  for (int r = 0; r < spec.repeats; ++r) {
    res.rc.push_back(0);
    res.out.push_back(out);
    if (spec.want_lse) res.lse.push_back(lse);
  }
  res.outputs_untouched = false;
  return res;
}

/// One call of a sequence: its problem, its spec, and its buffers.
struct Job {
  const Problem* p;
  CallSpec spec;
  std::unique_ptr<GuardedBuffer> qb, kb, vb;
  std::vector<unsigned char> q0, k0, v0;  // the inputs' bytes before the calls
  std::vector<std::unique_ptr<GuardedBuffer>> outs, lses;
  size_t out_n = 0, lse_n = 0;
  int first_slot = 0;  // index of its first repeat among all the child's calls
};

/// What a call process does, laid out in one SharedBlock: the parent writes
/// it, the child (forked from attnprop, or cloned by the plug-in's loader,
/// which has none of the parent's later memory) reads it and writes back
/// the return codes and the late-write report.
struct CallPlan {
  /// Bytes after the last args that are the plan's own (zero until the
  /// return codes are written): a struct_size larger than the args
  /// (CallSpec::struct_size_extra, at most this) stays inside the block.
  static constexpr size_t kArgsTail = 64;
  struct Span {
    uintptr_t data;
    size_t bytes;
  };
  int dtype = 0;
  int late_ms = 0;  // 0: no late-write check
  int calls = 0, regions = 0, watched = 0;
  int done = 0;       // calls returned so far
  int threads = 0;    // threads of the child after the calls (1: the kernel left none running)
  int changed = 0;    // 1 + index into Watched() of a buffer that changed after the calls returned
  int waited_ms = 0;

  static size_t Bytes(int calls, int regions, int watched) {
    return Offset(4, calls, regions) + sizeof(Span) * static_cast<size_t>(watched);
  }
  attnprop_attention_args* Args() { return At<attnprop_attention_args>(1); }
  int* Rcs() { return At<int>(2); }
  GuardedRegion* Regions() { return At<GuardedRegion>(3); }
  Span* Watched() { return At<Span>(4); }

 private:
  static size_t Align(size_t n) { return (n + 15) / 16 * 16; }
  // Where part `k` starts: the header, args, return codes, regions, spans.
  static size_t Offset(int k, int calls, int regions) {
    size_t at = Align(sizeof(CallPlan));
    if (k > 1) at = Align(at + sizeof(attnprop_attention_args) * static_cast<size_t>(calls) + kArgsTail);
    if (k > 2) at = Align(at + sizeof(int) * static_cast<size_t>(calls));
    if (k > 3) at = Align(at + sizeof(GuardedRegion) * static_cast<size_t>(regions));
    return at;
  }
  template <class T>
  T* At(int k) {
    return reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(this) + Offset(k, calls, regions));
  }
};

/// The body of a call process: the buffers' protections (inputs read-only
/// while the kernel runs: a write to them, even one undone before returning,
/// faults at its address), the calls in order, then the late-write check.
void RunPlan(const KernelLibrary& lib, CallPlan* plan) {
  const auto t = static_cast<DType>(plan->dtype);
  const KernelEntry entry = t == DType::kF32 ? lib.f32 : t == DType::kF64 ? lib.f64 : t == DType::kBF16 ? lib.bf16 : lib.f16;
  if (entry == nullptr) throw std::runtime_error(lib.path + " has no entry point for this storage type");
  ProtectAndLock(plan->Regions(), plan->regions);
  for (int i = 0; i < plan->calls; ++i) {
    plan->Rcs()[i] = entry(&plan->Args()[i]);
    plan->done = i + 1;
  }
  // A thread the kernel left running may still write the outputs.
  plan->threads = ThreadCount();
  if (plan->threads <= 1 || plan->late_ms <= 0) return;
  std::vector<std::vector<unsigned char>> snap;
  for (int i = 0; i < plan->watched; ++i) {
    const auto* d = reinterpret_cast<const unsigned char*>(plan->Watched()[i].data);
    snap.emplace_back(d, d + plan->Watched()[i].bytes);
  }
  usleep(static_cast<useconds_t>(plan->late_ms) * 1000);
  plan->waited_ms = plan->late_ms;
  for (int i = 0; i < plan->watched; ++i)
    if (std::memcmp(snap[static_cast<size_t>(i)].data(), reinterpret_cast<const void*>(plan->Watched()[i].data),
                    plan->Watched()[i].bytes) != 0) {
      plan->changed = i + 1;
      return;
    }
}

// In a plug-in's loader process: the library it loaded.
KernelLibrary g_loaded;

/// The plug-in's loader (Zygote), started at its first call; null when none
/// can be used (the calls then fork attnprop and load the library in each
/// child). ATTNPROP_NO_LOADER=1 turns loaders off.
Zygote* LoaderOf(const Operator& op) {
  static std::map<std::string, std::unique_ptr<Zygote>> loaders;
  const KernelLibrary& lib = *op.library;
  if (!lib.plugin) return nullptr;
  static const bool off = [] {
    const char* e = std::getenv("ATTNPROP_NO_LOADER");
    return e && *e && std::string(e) != "0";
  }();
  if (off) return nullptr;
  auto it = loaders.find(lib.path);
  if (it == loaders.end()) {
    std::string why;
    it = loaders
             .emplace(lib.path, Zygote::Start([&] { g_loaded = OpenInChild(lib); },
                                              [](void* plan) { RunPlan(g_loaded, static_cast<CallPlan*>(plan)); },
                                              op.timeout_s, &why))
             .first;
    // Slower, never wrong: say so once.
    if (!it->second)
      std::cerr << "attnprop: no loader process for " << lib.path << " (" << why
                << "): each call loads it in a fork of attnprop\n";
  }
  return it->second.get();
}

/// The calls of `jobs` in order (each job's repeats in a row) in ONE child
/// process; one CallResult per job. A crash or timeout ends the child: the
/// job it happened in reports it (with the call's number), later jobs report
/// "not run: an earlier call of the sequence ... ".
std::vector<CallResult> CallKernelJobs(const Operator& op, const std::vector<std::pair<const Problem*, CallSpec>>& in) {
  const DType t = op.dtype, lt = op.LseType();
  const size_t es = op.ElementBytes(), ls = op.LseBytes();
  std::vector<Job> jobs(in.size());
  int slots = 0;
  for (size_t n = 0; n < in.size(); ++n) {
    Job& j = jobs[n];
    j.p = in[n].first;
    j.spec = in[n].second;
    const Problem& p = *j.p;
    auto make_input = [&](const char* name, const ExactMatrix& m) {
      auto b = std::make_unique<GuardedBuffer>(name, m.data.size() * es, j.spec.in_place);
      for (size_t i = 0; i < m.data.size(); ++i) Store(t, m.data[i], b->data() + i * es);
      return b;
    };
    j.qb = make_input("q", p.q), j.kb = make_input("k", p.k), j.vb = make_input("v", p.v);
    j.q0.assign(j.qb->data(), j.qb->data() + j.qb->bytes());
    j.k0.assign(j.kb->data(), j.kb->data() + j.kb->bytes());
    j.v0.assign(j.vb->data(), j.vb->data() + j.vb->bytes());
    j.out_n = static_cast<size_t>(p.batch * p.t_q * p.d_v), j.lse_n = static_cast<size_t>(p.batch * p.t_q);
    for (int r = 0; r < j.spec.repeats; ++r) {
      j.outs.push_back(std::make_unique<GuardedBuffer>("out", j.out_n * es, j.spec.out_place));
      std::memset(j.outs.back()->data(), kOutputFill, j.out_n * es);
      if (j.spec.want_lse) {
        j.lses.push_back(std::make_unique<GuardedBuffer>("lse", j.lse_n * ls, j.spec.out_place));
        std::memset(j.lses.back()->data(), kOutputFill, j.lse_n * ls);
      }
    }
    j.first_slot = slots;
    slots += j.spec.repeats;
  }
  KernelHealth& health = HealthOf(op);
  if (health.finished == 0 && health.timeouts >= kTimeoutsBeforeGivingUp) {
    CallResult res;
    res.crash = "timed out: every call timed out (the first " + std::to_string(health.timeouts) +
                " calls of this kernel each ran past the " + Seconds(op.timeout_s) +
                " limit and were killed; it is not called again)";
    return std::vector<CallResult>(jobs.size(), res);
  }
  const int late_ms =
      health.late_seen || health.calls < kLateCheckedCalls || health.calls % kLateCheckEvery == 0 ? kLateCheckMs : 0;
  ++health.calls;
  std::vector<const GuardedBuffer*> watched;  // what a thread of the kernel might write after the call
  std::vector<const GuardedBuffer*> buffers;  // every buffer, for the child's protections
  for (Job& j : jobs) {
    for (const auto* b : {j.qb.get(), j.kb.get(), j.vb.get()}) buffers.push_back(b);
    for (auto& b : j.outs) watched.push_back(b.get());
    for (auto& b : j.lses) watched.push_back(b.get());
  }
  buffers.insert(buffers.end(), watched.begin(), watched.end());
  SharedBlock shared(CallPlan::Bytes(slots, static_cast<int>(buffers.size()), static_cast<int>(watched.size())));
  auto* plan = new (shared.data()) CallPlan;
  plan->dtype = static_cast<int>(t);
  plan->late_ms = late_ms;
  plan->calls = slots;
  plan->regions = static_cast<int>(buffers.size());
  plan->watched = static_cast<int>(watched.size());
  int slot = 0;
  for (Job& j : jobs) {
    const Problem& p = *j.p;
    for (int r = 0; r < j.spec.repeats; ++r, ++slot) {
      attnprop_attention_args& a = plan->Args()[slot];
      a = attnprop_attention_args{};
      a.struct_size = sizeof(attnprop_attention_args) + std::min(j.spec.struct_size_extra, CallPlan::kArgsTail);
      a.batch = p.batch;
      a.t_q = p.t_q;
      a.t_k = p.t_k;
      a.d_k = p.d_k;
      a.d_v = p.d_v;
      a.scale = p.scale.ToDouble();
      a.causal = p.causal;
      a.q = j.qb->data();
      a.k = j.kb->data();
      a.v = j.vb->data();
      a.out = j.outs[static_cast<size_t>(r)]->data();
      a.lse = j.spec.want_lse ? j.lses[static_cast<size_t>(r)]->data() : nullptr;
      Mutate(&a, j.spec.mutation);
    }
  }
  bool all_shared = shared.Shared();
  for (size_t i = 0; i < buffers.size(); ++i) {
    plan->Regions()[i] = buffers[i]->Region(/*read_only=*/i < 3 * jobs.size());
    all_shared = all_shared && buffers[i]->Shared();
  }
  for (size_t i = 0; i < watched.size(); ++i)
    plan->Watched()[i] = {reinterpret_cast<uintptr_t>(watched[i]->data()), watched[i]->bytes()};
  // The plug-in is loaded in a child, never in attnprop: its loader's
  // clone, or a fork of attnprop that loads it (no loader, or buffers the
  // loader cannot see).
  std::optional<ChildOutcome> run;
  if (Zygote* loader = all_shared ? LoaderOf(op) : nullptr) run = RunInZygoteChild(*loader, plan, op.timeout_s);
  if (!run) run = RunInChild([&] { RunPlan(OpenInChild(*op.library), plan); }, op.timeout_s);
  const ChildOutcome& o = *run;

  if (o.kind == ChildOutcome::Kind::kTimeout) {
    ++health.timeouts;
  } else {
    ++health.finished;
  }
  if (plan->changed > 0) health.late_seen = true;
  const int done = plan->done;
  std::vector<CallResult> results(jobs.size());
  for (size_t n = 0; n < jobs.size(); ++n) {
    Job& j = jobs[n];
    const Problem& p = *j.p;
    CallResult& res = results[n];
    for (int r = 0; r < j.spec.repeats && j.first_slot + r < done; ++r) res.rc.push_back(plan->Rcs()[j.first_slot + r]);
    const bool ran_all = j.first_slot + j.spec.repeats <= done;
    const bool crashed_here = !ran_all && j.first_slot <= done;
    if (o.kind != ChildOutcome::Kind::kFinished && crashed_here) {
      res.crash = o.kind == ChildOutcome::Kind::kTimeout ? "timed out after " + Seconds(op.timeout_s) + " (killed)"
                                                         : o.Describe();
      if (o.have_fault_address) {
        std::string where;
        bool input_write = false;
        for (const Job& jj : jobs)
          for (const GuardedBuffer* b : {jj.qb.get(), jj.kb.get(), jj.vb.get()})
            if (!input_write && b->Inside(o.fault_address)) {
              // Only a write faults there: the pages are read-only, not absent.
              b->Describe(o.fault_address, &where);
              const ExactMatrix& m = b == jj.qb.get() ? jj.p->q : b == jj.kb.get() ? jj.p->k : jj.p->v;
              const auto off = static_cast<int64_t>(o.fault_address - reinterpret_cast<uintptr_t>(b->data()));
              std::string element;
              if (off >= 0 && m.cols > 0 && static_cast<size_t>(off) < b->bytes()) {
                const int64_t e = off / static_cast<int64_t>(es);
                element = b->name() + "[" + std::to_string(e / m.cols) + "][" + std::to_string(e % m.cols) + "] (";
              }
              res.crash += ": the kernel modified its input: a write to " + element + where +
                           (element.empty() ? "" : ")") + ", which is read-only during the call";
              input_write = true;
            }
        if (!input_write) {
          std::vector<const GuardedBuffer*> all;
          for (const Job& jj : jobs) {
            for (const GuardedBuffer* b : {jj.qb.get(), jj.kb.get(), jj.vb.get()}) all.push_back(b);
            for (auto& b : jj.outs) all.push_back(b.get());
            for (auto& b : jj.lses) all.push_back(b.get());
          }
          for (const GuardedBuffer* b : all)
            if (b->Describe(o.fault_address, &where)) {
              res.crash += ": " + where;
              break;
            }
        }
      }
      if (j.spec.repeats > 1)
        res.crash += " (in call " + std::to_string(done - j.first_slot + 1) + " of " + std::to_string(j.spec.repeats) + ")";
    } else if (o.kind != ChildOutcome::Kind::kFinished && !ran_all) {
      res.crash = "was not called: an earlier call in the same process ended it";
    } else if (o.kind != ChildOutcome::Kind::kFinished) {
      // Every call returned, and then the process did not end cleanly (a
      // thread the kernel left, heap damage found at a later free): a call
      // is passed only when its process is seen to end well, whatever the
      // plan in shared memory says.
      res.crash = "let the call process end abnormally after its calls returned: the process " + o.Describe();
    } else if (o.kind == ChildOutcome::Kind::kFinished && o.left_processes) {
      res.crash = "left processes running after the call returned (it forked helpers; attnprop killed them)";
    }
    if (plan->changed > 0)
      res.late_write = watched[static_cast<size_t>(plan->changed - 1)]->name() + " changed " +
                       std::to_string(plan->waited_ms) +
                       " ms after the call returned (a write from a thread the kernel left running)";
    auto read = [&](const GuardedBuffer& b, size_t n_el, DType bt, size_t bs, std::vector<std::vector<Mpfr>>* values,
                    std::vector<std::vector<unsigned char>>* bytes) {
      bytes->emplace_back(b.data(), b.data() + b.bytes());
      std::vector<Mpfr> v(n_el);
      for (size_t i = 0; i < n_el; ++i) v[i] = Mpfr(Load(bt, b.data() + i * bs));
      values->push_back(std::move(v));
      for (size_t i = 0; i < b.bytes(); ++i) res.outputs_untouched = res.outputs_untouched && b.data()[i] == kOutputFill;
      if (res.output_slack.empty()) res.output_slack = b.SlackDamage();
    };
    for (int r = 0; r < j.spec.repeats; ++r) {
      read(*j.outs[static_cast<size_t>(r)], j.out_n, t, es, &res.out, &res.out_bytes);
      if (j.spec.want_lse) read(*j.lses[static_cast<size_t>(r)], j.lse_n, lt, ls, &res.lse, &res.lse_bytes);
    }
    for (const GuardedBuffer* b : {j.qb.get(), j.kb.get(), j.vb.get()})
      if (res.input_slack.empty()) res.input_slack = b->SlackDamage();
    auto compare = [&](const GuardedBuffer& b, const std::vector<unsigned char>& before, const ExactMatrix& m) {
      if (!res.inputs_changed.empty()) return;
      for (size_t i = 0; i < before.size(); i += es) {
        if (std::memcmp(before.data() + i, b.data() + i, es) != 0) {
          const size_t e = i / es;
          res.inputs_changed = b.name() + "[" + std::to_string(e / static_cast<size_t>(m.cols)) + "][" +
                               std::to_string(e % static_cast<size_t>(m.cols)) + "] changed from " +
                               Num(Load(t, before.data() + i)) + " to " + Num(Load(t, b.data() + i));
          return;
        }
      }
    };
    compare(*j.qb, j.q0, p.q);
    compare(*j.kb, j.k0, p.k);
    compare(*j.vb, j.v0, p.v);
  }
  return results;
}

bool SameValues(const std::vector<Mpfr>& a, size_t a_off, const std::vector<Mpfr>& b, size_t b_off, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const Mpfr &x = a[a_off + i], &y = b[b_off + i];
    if (isnan(x) && isnan(y)) continue;
    if (!(x == y) || signbit(x) != signbit(y)) return false;
  }
  return true;
}

bool SameBytes(const std::vector<unsigned char>& a, size_t a_off, const std::vector<unsigned char>& b, size_t b_off,
               size_t n, size_t bytes_per) {
  return std::memcmp(a.data() + a_off * bytes_per, b.data() + b_off * bytes_per, n * bytes_per) == 0;
}

}  // namespace

double Operator::UnitRoundoff() const {
  if (kind == Kind::kModelMpfr) return ScalarTraits<Mpfr>::UnitRoundoff();
  switch (IsHalf(dtype) ? accumulation : dtype) {
    case DType::kF32: return 0x1p-24;
    case DType::kF64: return 0x1p-53;
    case DType::kBF16: return kBF16.UnitRoundoff();
    case DType::kF16: return kF16.UnitRoundoff();
  }
  return 0x1p-24;
}

double Operator::MinNormal() const {
  if (kind == Kind::kModelMpfr) return 0;
  switch (IsHalf(dtype) ? accumulation : dtype) {
    case DType::kF32: return static_cast<double>(std::numeric_limits<float>::min());
    case DType::kF64: return std::numeric_limits<double>::min();
    case DType::kBF16: return kBF16.MinNormal();
    case DType::kF16: return kF16.MinNormal();
  }
  return 0;
}

const char* MutationName(Mutation m) {
  switch (m) {
    case Mutation::kNone: return "none";
    case Mutation::kNullQ: return "q = NULL";
    case Mutation::kNullK: return "k = NULL";
    case Mutation::kNullV: return "v = NULL";
    case Mutation::kNullOut: return "out = NULL";
    case Mutation::kBatch0: return "batch = 0";
    case Mutation::kTq0: return "t_q = 0";
    case Mutation::kTk0: return "t_k = 0";
    case Mutation::kDk0: return "d_k = 0";
    case Mutation::kDv0: return "d_v = 0";
    case Mutation::kNegativeTk: return "t_k = -1";
    case Mutation::kStructSize0: return "struct_size = 0";
    case Mutation::kStructSizeShort: return "struct_size = sizeof(v1 args) - 8";
    case Mutation::kScaleNan: return "scale = NaN";
    case Mutation::kScaleInf: return "scale = +inf";
    case Mutation::kCausal2: return "causal = 2";
    case Mutation::kCausalNegative: return "causal = -1";
    case Mutation::kCount: break;
  }
  return "?";
}

CallResult Call(const Operator& op, const Problem& p, const CallSpec& spec) {
  switch (op.kind) {
    case Operator::Kind::kModelDouble: return CallModel<double>(p, spec);
    case Operator::Kind::kModelMpfr: return CallModel<Mpfr>(p, spec);
    case Operator::Kind::kKernel: break;
  }
  if (!op.library) throw std::logic_error("kernel suite: a kernel operator without a library");
  return CallKernelJobs(op, {{&p, spec}})[0];
}

std::vector<CallResult> CallSequence(const Operator& op, const std::vector<Problem>& problems,
                                     const std::vector<CallSpec>& specs) {
  if (problems.size() != specs.size()) throw std::logic_error("CallSequence: one spec per problem");
  if (op.kind != Operator::Kind::kKernel) {  // the model keeps no state: each call alone
    std::vector<CallResult> r;
    for (size_t n = 0; n < problems.size(); ++n) r.push_back(Call(op, problems[n], specs[n]));
    return r;
  }
  if (!op.library) throw std::logic_error("kernel suite: a kernel operator without a library");
  std::vector<std::pair<const Problem*, CallSpec>> jobs;
  for (size_t n = 0; n < problems.size(); ++n) jobs.emplace_back(&problems[n], specs[n]);
  return CallKernelJobs(op, jobs);
}

void RequireSuccess(const CallResult& r, const std::string& what) {
  if (!r.crash.empty()) RC_FAIL(what + ": the kernel " + r.crash);
  if (!r.late_write.empty()) RC_FAIL(what + ": " + r.late_write);
  for (size_t i = 0; i < r.rc.size(); ++i)
    if (r.rc[i] != 0) RC_FAIL(what + ": the kernel returned " + std::to_string(r.rc[i]) + " on valid arguments");
}

bool SameOut(const CallResult& a, size_t a_off, const CallResult& b, size_t b_off, size_t n, size_t bytes_per) {
  if (!a.out_bytes.empty() && !b.out_bytes.empty()) return SameBytes(a.out_bytes[0], a_off, b.out_bytes[0], b_off, n, bytes_per);
  return SameValues(a.out[0], a_off, b.out[0], b_off, n);
}

bool SameLse(const CallResult& a, size_t a_off, const CallResult& b, size_t b_off, size_t n, size_t bytes_per) {
  if (!a.lse_bytes.empty() && !b.lse_bytes.empty()) return SameBytes(a.lse_bytes[0], a_off, b.lse_bytes[0], b_off, n, bytes_per);
  return SameValues(a.lse[0], a_off, b.lse[0], b_off, n);
}

std::string Num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a (%.9g)", x, x);
  return buf;
}

std::string Num(const Mpfr& x) { return Num(ToDouble(x)); }

}  // namespace attnprop::ksuite
