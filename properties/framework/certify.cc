#include "properties/framework/certify.h"

#include <mpfr.h>
#include <rapidcheck.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "properties/framework/rc_bridge.h"

namespace attnprop {
namespace {

int g_max_bits = kDefaultCertifyMaxBits;
thread_local CandidateScope* g_scope = nullptr;
thread_local bool g_in_interval = false;
// The first undecided check of the current interval evaluation (empty: none).
thread_local std::string g_undecided;

/// Thrown by an interval check that is certainly violated: the evaluation
/// stops there (nothing later can undo a certain violation).
struct Violation {
  std::string text;
};

class IntervalEvaluation {
 public:
  IntervalEvaluation() : saved_(g_in_interval), saved_scope_(g_scope), sink_(nullptr) {
    g_in_interval = true;
    g_scope = nullptr;
  }
  ~IntervalEvaluation() {
    g_in_interval = saved_;
    g_scope = saved_scope_;
  }
  IntervalEvaluation(const IntervalEvaluation&) = delete;
  IntervalEvaluation& operator=(const IntervalEvaluation&) = delete;

 private:
  bool saved_;
  CandidateScope* saved_scope_;
  ScopedObservationSink sink_;
};

/// The fewest significant digits (8, 16, ...) at which a > b still reads
/// as disjoint intervals once each endpoint is printed rounded outward.
int SeparatingDigits(const Interval& a, const Interval& b) {
  int digits = 8;
  for (; digits < 1240; digits *= 2) {
    mpfr_t lo, hi;
    mpfr_init2(lo, 4200);
    mpfr_init2(hi, 4200);
    char* s = nullptr;
    bool apart = false;
    if (mpfr_asprintf(&s, "%.*RDe", digits - 1, &a.data()->left) >= 0 && s) {
      mpfr_set_str(lo, s, 10, MPFR_RNDD);
      mpfr_free_str(s);
      s = nullptr;
      if (mpfr_asprintf(&s, "%.*RUe", digits - 1, &b.data()->right) >= 0 && s) {
        mpfr_set_str(hi, s, 10, MPFR_RNDU);
        mpfr_free_str(s);
        apart = mpfr_cmp(lo, hi) > 0;
      }
    }
    mpfr_clear(lo);
    mpfr_clear(hi);
    if (apart) break;
  }
  return digits;
}

}  // namespace

int CertifyMaxBits() { return g_max_bits; }
void SetCertifyMaxBits(int bits) { g_max_bits = bits < kCertifyStartBits ? kCertifyStartBits : bits; }

Certificate Certify(const std::function<void(const Case&)>& interval_conclusion, const Case& c,
                    const std::function<std::optional<Certificate>()>& exact_fallback) {
  IntervalEvaluation scope;
  std::string why = "not evaluated";
  const int cap = g_max_bits;
  bool exact_tried = !exact_fallback;
  for (int bits = kCertifyStartBits;; bits *= 2) {
    IntervalPrecisionScope precision(bits);
    MpfrPrecisionScope mpfr_precision(bits);  // constants a conclusion makes in MPFR
    g_undecided.clear();
    std::optional<Violation> violation;
    const uint64_t doubts_before = internal::IntervalDoubts();
    const Outcome o = Evaluate(
        [&](const Case& k) {
          try {
            interval_conclusion(k);
          } catch (const Violation& v) {
            violation = v;
          } catch (const Undecided& u) {
            if (g_undecided.empty()) g_undecided = u.what();
          }
        },
        c);
    const bool doubted = internal::IntervalDoubts() != doubts_before;
    // RC_ASSERT / RC_FAIL in the interval conclusion: a condition read false,
    // like ExpectThat(false).
    if (!violation && o.kind == Outcome::Kind::kFails) violation = Violation{o.message};
    if (violation) {
      // Certain only from an evaluation without a doubt: an Undecided the
      // claim caught itself, or a value read as a double, may have steered
      // the computation that the violated check read.
      if (!doubted) return {Certainty::kViolated, bits, violation->text};
      why = violation->text + " (not certain: the evaluation " +
            (g_undecided.empty() ? std::string("read an interval as a double or caught an Undecided")
                                 : "had a doubt: " + g_undecided) +
            ")";
    } else {
      switch (o.kind) {
        case Outcome::Kind::kPasses:
          if (g_undecided.empty() && !doubted) return {Certainty::kHolds, bits, ""};
          why = g_undecided.empty() ? "the evaluation read an interval as a double or caught an Undecided"
                                    : g_undecided;
          break;
        case Outcome::Kind::kMisfit:
          // The case lacks a field the interval conclusion reads: more
          // precision cannot help.
          return {Certainty::kUndecided, bits, "the interval evaluation cannot read the case: " + o.message};
        default:
          // A failure other than a check (RC_FAIL, an exception, a discard):
          // the evaluation did not decide; a certificate needs a decided check.
          return {Certainty::kUndecided, bits, "the interval evaluation stopped: " + o.message};
      }
    }
    // Undecided at this precision. The exact route (an algebraic claim) is
    // tried once, after the first interval evaluation, within its budget.
    if (!exact_tried) {
      exact_tried = true;
      if (std::optional<Certificate> exact = exact_fallback()) return *exact;
    }
    if (2 * bits > cap) return {Certainty::kUndecided, bits, why};
  }
}

Certificate Certify(const std::function<void(const Case&)>& interval_conclusion, const Case& c) {
  return Certify(interval_conclusion, c, nullptr);
}

namespace {

/// The exact evaluation itself, in this process.
std::optional<Certificate> ExactlyHere(const std::function<void(const Case&)>& exact_conclusion, const Case& c) {
  // No sink, no candidate scope: the rational comparisons decide by
  // themselves.
  // (It may be asked from inside an interval evaluation: it is none.)
  CandidateScope* const saved = g_scope;
  const bool saved_in_interval = g_in_interval;
  g_scope = nullptr;
  g_in_interval = false;
  const Outcome o = [&] {
    ScopedObservationSink sink(nullptr);
    return Evaluate(exact_conclusion, c);
  }();
  g_scope = saved;
  g_in_interval = saved_in_interval;
  switch (o.kind) {
    case Outcome::Kind::kPasses: return Certificate{Certainty::kHolds, 0, ""};
    case Outcome::Kind::kFails: return Certificate{Certainty::kViolated, 0, o.message};
    default: return std::nullopt;
  }
}

double EnvNumber(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  return end && *end == 0 && x > 0 ? x : fallback;
}

bool WriteAll(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

ExactBudget DefaultExactBudget() {
  return {EnvNumber("ATTNPROP_EXACT_SECONDS", 2.0), EnvNumber("ATTNPROP_EXACT_MB", 1024)};
}

std::optional<Certificate> CertifyExactly(const std::function<void(const Case&)>& exact_conclusion, const Case& c,
                                          const ExactBudget& budget) {
  // Rationals can grow without bound (x^(2^k) doubles its digits per
  // squaring) and GMP aborts the process when an allocation fails: the exact
  // route runs in a child process with a CPU-time and a memory limit, and a
  // child that does not report is "no exact answer" (intervals go on).
  int fds[2];
  if (pipe(fds) != 0) return std::nullopt;
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return std::nullopt;
  }
  if (pid == 0) {
    close(fds[0]);
    const rlim_t cpu = static_cast<rlim_t>(std::ceil(budget.seconds));
    rlimit lim{cpu, cpu};
    setrlimit(RLIMIT_CPU, &lim);
#if !defined(__SANITIZE_ADDRESS__)
    // (ASan reserves terabytes of address space: no address-space limit there.)
    // The budget on top of what the process already maps (a test binary
    // with large libraries maps hundreds of megabytes before any rational).
    rlim_t mapped = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      unsigned long pages = 0;
      if (std::fscanf(f, "%lu", &pages) == 1) mapped = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE));
      std::fclose(f);
    }
    const rlim_t bytes = mapped + static_cast<rlim_t>(budget.megabytes * 1048576.0);
    rlimit mem{bytes, bytes};
    setrlimit(RLIMIT_AS, &mem);
#endif
    alarm(static_cast<unsigned>(cpu) + 1);  // wall time too (a child that sleeps)
    // Whatever happens, the child never returns into the caller's code.
    try {
      const std::optional<Certificate> cert = ExactlyHere(exact_conclusion, c);
      std::string out = !cert ? "n" : cert->verdict == Certainty::kHolds ? "h" : "v" + cert->text;
      WriteAll(fds[1], out);
      close(fds[1]);
    } catch (...) {
      _exit(3);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string got;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got.empty()) return std::nullopt;  // over budget
  switch (got[0]) {
    case 'h': return Certificate{Certainty::kHolds, 0, ""};
    case 'v': return Certificate{Certainty::kViolated, 0, got.substr(1)};
    default: return std::nullopt;
  }
}

std::string CertificateLine(const Certificate& cert) {
  if (cert.bits == 0) {
    switch (cert.verdict) {
      case Certainty::kViolated: return "certified by exact rational arithmetic: " + cert.text;
      case Certainty::kHolds: return "holds in exact rational arithmetic";
      case Certainty::kUndecided: break;
    }
  }
  const std::string bits = std::to_string(cert.bits) + " bits";
  switch (cert.verdict) {
    case Certainty::kViolated: return "certified by interval arithmetic (" + bits + "): " + cert.text;
    case Certainty::kHolds: return "holds by interval arithmetic (" + bits + ")";
    case Certainty::kUndecided: return "undecided by interval arithmetic up to " + bits + ": " + cert.text;
  }
  return "";
}

CandidateScope::CandidateScope(std::function<Certificate()> certify)
    : certify_(std::move(certify)), saved_(g_scope) {
  g_scope = this;
}
CandidateScope::~CandidateScope() { g_scope = saved_; }

const Certificate& CandidateScope::Get() {
  if (!cert_) cert_ = certify_();
  return *cert_;
}

namespace internal {

CandidateScope* CurrentCandidateScope() { return g_scope; }
bool InIntervalEvaluation() { return g_in_interval; }

void IntervalViolated(const std::string& what) { throw Violation{what}; }

namespace {
/// The shared rule; `equality`: overlapping enclosures hold (a declared
/// equality case) instead of being undecided.
void CheckEnclosures(const Tolerance& tolerance, const Interval& observed, const Interval& bound, bool equality) {
  if (tolerance.metric.empty()) RC_FAIL("a tolerance without a metric (read before it was initialised?)");
  if (observed.NanRaw() || bound.NanRaw()) {
    if (g_undecided.empty()) g_undecided = tolerance.metric + ": NaN in the enclosure";
    return;
  }
  // One rule for every metric, whatever its kind: observed <= bound is
  // violated iff observed.lo > bound.hi, holds iff observed.hi <= bound.lo,
  // and is undecided otherwise. An identity (bound exactly 0 in Interval)
  // is the same rule: violated when the enclosure excludes 0, holding only
  // for the point 0.
  if (mpfr_cmp(&observed.data()->left, &bound.data()->right) > 0) {
    if (internal::CertainlyZeroRaw(bound))
      throw Violation{tolerance.metric + " in " + observed.ToString() + ", which excludes 0 (" + tolerance.bound +
                      " is exactly 0)"};
    const int digits = SeparatingDigits(observed, bound);
    throw Violation{tolerance.metric + " in " + observed.ToString(digits) + " > " + tolerance.bound + " in " +
                    bound.ToString(digits)};
  }
  if (mpfr_cmp(&observed.data()->right, &bound.data()->left) <= 0) return;
  if (equality) return;
  if (g_undecided.empty())
    g_undecided = tolerance.metric + " in " + observed.ToString() + " overlaps " + tolerance.bound + " in " +
                  bound.ToString();
}
}  // namespace

void IntervalCheck(const Tolerance& tolerance, const Interval& observed, const Interval& bound) {
  CheckEnclosures(tolerance, observed, bound, false);
}
void IntervalCheckAtEquality(const Tolerance& tolerance, const Interval& observed, const Interval& bound) {
  CheckEnclosures(tolerance, observed, bound, true);
}

}  // namespace internal
}  // namespace attnprop
