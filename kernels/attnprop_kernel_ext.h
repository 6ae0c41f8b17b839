/* attnprop's own kernel: controls beyond the ABI (not part of the ABI).
 *
 * Which SIMD path runs, and on how many threads. Compiles as C11 and C++.
 * The environment variables ATTNPROP_KERNEL_TARGET (a target name below) and
 * ATTNPROP_KERNEL_THREADS (an integer >= 0, 0 = default) are read once, at
 * the first call into the library. If either is unusable (an unknown target,
 * a target this CPU cannot run, a malformed thread count), the attention
 * calls return nonzero, and one line saying why goes to stderr, until a
 * successful attnprop_kernel_set_target / attnprop_kernel_set_threads call
 * replaces the bad setting.
 *
 * Results never depend on the thread count: every (batch item, query block)
 * is computed by one thread with the same code, whichever thread it is.
 */
#ifndef ATTNPROP_KERNEL_EXT_H_
#define ATTNPROP_KERNEL_EXT_H_

#ifdef __cplusplus
extern "C" {
#endif

/* The targets this library was built with (its target table), in order of
 * preference: attnprop_kernel_target_name(i) for 0 <= i < count (NULL
 * outside that range), e.g. "scalar", "avx2", "avx512". "auto" is not in the
 * list: it means the last one this CPU supports. Never reads the
 * environment. */
int attnprop_kernel_target_count(void);
const char *attnprop_kernel_target_name(int i);
/* Chooses the path: a name from the target list, or "auto" (the best this
 * CPU supports). Returns 0 on success; nonzero, changing nothing, if the name
 * is unknown or this CPU cannot run it. */
int attnprop_kernel_set_target(const char *name);
/* The active target's name (one from the target list). */
const char *attnprop_kernel_target(void);
/* 1 if this CPU can run the named target ("auto" included), else 0. */
int attnprop_kernel_target_supported(const char *name);
/* Threads per call: n >= 1, or 0 for the default (the hardware concurrency).
 * Returns 0 on success, nonzero (changing nothing) for n < 0. */
int attnprop_kernel_set_threads(int n);

#ifdef __cplusplus
}
#endif

#endif /* ATTNPROP_KERNEL_EXT_H_ */
