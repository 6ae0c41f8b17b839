/* The kernel ABI from C (C11), linked against libattnprop_kernel.so: the
 * header compiles as C, the library exports the ABI, and the contract holds.
 * Exits nonzero on the first failed check. If ATTNPROP_KERNEL_TARGET is set
 * (ctest runs this once with it), the active target must be that one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/attnprop_kernel.h"
#include "kernels/attnprop_kernel_ext.h"

static int failures = 0;
#define CHECK(cond)                                                 \
  do {                                                              \
    if (!(cond)) {                                                  \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                   \
    }                                                               \
  } while (0)

static attnprop_attention_args make_args(const void *q, const void *k, const void *v, void *out, void *lse) {
  attnprop_attention_args a;
  memset(&a, 0, sizeof a);
  a.struct_size = sizeof a;
  a.batch = 1;
  a.t_q = 3;
  a.t_k = 2;
  a.d_k = 2;
  a.d_v = 2;
  a.scale = 0.5;
  a.causal = 0;
  a.q = q;
  a.k = k;
  a.v = v;
  a.out = out;
  a.lse = lse;
  return a;
}

int main(void) {
  const char *env = getenv("ATTNPROP_KERNEL_TARGET");
  CHECK(attnprop_kernel_abi_version() == ATTNPROP_KERNEL_ABI_VERSION);
  if (env != NULL && *env != '\0') CHECK(strcmp(attnprop_kernel_target(), env) == 0);
  printf("abi_c_test: target %s\n", attnprop_kernel_target());

  /* Two keys with equal scores: out is the mean of the values (exact here),
   * lse = s + ln 2. */
  {
    const double q[6] = {1, 0, 0, 1, 2, 2}, k[4] = {1, 1, 1, 1}, v[4] = {1, 2, 3, 6};
    double out[8], lse[4];
    for (int i = 0; i < 8; ++i) out[i] = -7;
    for (int i = 0; i < 4; ++i) lse[i] = -7;
    attnprop_attention_args a = make_args(q, k, v, out, lse);
    CHECK(attnprop_attention_f64(&a) == 0);
    for (int i = 0; i < 3; ++i) {
      CHECK(out[2 * i] == 2.0 && out[2 * i + 1] == 4.0);
      const double s = 0.5 * (q[2 * i] + q[2 * i + 1]);
      CHECK(fabs(lse[i] - (s + log(2.0))) <= 4e-16 * (1 + fabs(s)));
    }
    CHECK(out[6] == -7 && lse[3] == -7); /* nothing past the end */
  }
  /* f32, lse optional, causal with t_q > t_k: the first row sees no key. */
  {
    const float q[6] = {1, 0, 0, 1, 2, 2}, k[4] = {1, 1, 1, 1}, v[4] = {1, 2, 3, 6};
    float out[6], lse[3];
    attnprop_attention_args a = make_args(q, k, v, out, lse);
    a.causal = 1;
    CHECK(attnprop_attention_f32(&a) == 0);
    CHECK(out[0] == 0.0f && out[1] == 0.0f && isinf(lse[0]) && lse[0] < 0);
    CHECK(out[2] == 1.0f && out[3] == 2.0f); /* row 1 sees key 0 only */
    CHECK(out[4] == 2.0f && out[5] == 4.0f); /* row 2 sees both */
    float out2[6];
    a.out = out2;
    a.lse = NULL;
    CHECK(attnprop_attention_f32(&a) == 0);
    CHECK(memcmp(out, out2, sizeof out) == 0);
  }
  /* ABI v2: bf16 and f16 storage (uint16_t q, k, v, out), lse in float; the
   * same problem as above, whose outputs (means of 1, 2, 3, 6) are exact in
   * both formats. Also a subnormal f16 value passes through a single key. */
  {
    /* bf16: 1 = 0x3F80, 2 = 0x4000, 3 = 0x4040, 6 = 0x40C0, 0.5 = 0x3F00, 4 = 0x4080. */
    const uint16_t q[6] = {0x3F80, 0, 0, 0x3F80, 0x4000, 0x4000}, k[4] = {0x3F80, 0x3F80, 0x3F80, 0x3F80},
                   v[4] = {0x3F80, 0x4000, 0x4040, 0x40C0};
    uint16_t out[6];
    float lse[3];
    attnprop_attention_args a = make_args(q, k, v, out, lse);
    CHECK(attnprop_kernel_accumulation(ATTNPROP_FORMAT_BF16) == ATTNPROP_FORMAT_F32);
    CHECK(attnprop_kernel_accumulation(ATTNPROP_FORMAT_F16) == ATTNPROP_FORMAT_F32);
    CHECK(attnprop_kernel_accumulation(ATTNPROP_FORMAT_F32) == 0);
    CHECK(attnprop_attention_bf16(&a) == 0);
    for (int i = 0; i < 3; ++i) {
      CHECK(out[2 * i] == 0x4000 && out[2 * i + 1] == 0x4080); /* 2 and 4 */
      const float s = 0.5f * (i == 2 ? 4.0f : 1.0f);
      CHECK(fabsf(lse[i] - (s + logf(2.0f))) <= 1e-6f * (1 + fabsf(s)));
    }
    /* f16: 1 = 0x3C00, 2 = 0x4000, 3 = 0x4200, 6 = 0x4600, 4 = 0x4400. */
    const uint16_t qh[6] = {0x3C00, 0, 0, 0x3C00, 0x4000, 0x4000}, kh[4] = {0x3C00, 0x3C00, 0x3C00, 0x3C00},
                   vh[4] = {0x3C00, 0x4000, 0x4200, 0x4600};
    a = make_args(qh, kh, vh, out, lse);
    CHECK(attnprop_attention_f16(&a) == 0);
    for (int i = 0; i < 3; ++i) CHECK(out[2 * i] == 0x4000 && out[2 * i + 1] == 0x4400);
    /* One key: out = v exactly, a subnormal (0x0001 = 2^-24) and -65504 (0xFBFF) included; an empty causal row gets +0 and -inf. */
    const uint16_t v1[2] = {0x0001, 0xFBFF};
    a = make_args(qh, kh, v1, out, lse);
    a.t_k = 1;
    a.causal = 1;
    CHECK(attnprop_attention_f16(&a) == 0);
    /* t_q = 3, t_k = 1: rows 0 and 1 see no key, row 2 sees key 0. */
    CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 0 && isinf(lse[0]) && lse[0] < 0 && isinf(lse[1]));
    CHECK(out[4] == 0x0001 && out[5] == 0xFBFF);
    /* Invalid arguments: nonzero, nothing written. */
    for (int i = 0; i < 6; ++i) out[i] = 0x1234;
    a.q = NULL;
    CHECK(attnprop_attention_bf16(&a) != 0 && attnprop_attention_f16(&a) != 0);
    for (int i = 0; i < 6; ++i) CHECK(out[i] == 0x1234);
  }
  /* Invalid arguments: nonzero, nothing written. */
  {
    const float q[6] = {0}, k[4] = {0}, v[4] = {0};
    float out[6], lse[3];
    for (int i = 0; i < 6; ++i) out[i] = 42;
    for (int i = 0; i < 3; ++i) lse[i] = 42;
    attnprop_attention_args a = make_args(q, k, v, out, lse);
    attnprop_attention_args b;
    b = a; b.struct_size = sizeof b - 8; CHECK(attnprop_attention_f32(&b) != 0);
    b = a; b.q = NULL; CHECK(attnprop_attention_f32(&b) != 0);
    b = a; b.out = NULL; CHECK(attnprop_attention_f32(&b) != 0);
    b = a; b.d_k = 0; CHECK(attnprop_attention_f32(&b) != 0);
    b = a; b.scale = INFINITY; CHECK(attnprop_attention_f32(&b) != 0);
    b = a; b.scale = NAN; CHECK(attnprop_attention_f64(&b) != 0);
    b = a; b.causal = 3; CHECK(attnprop_attention_f64(&b) != 0);
    CHECK(attnprop_attention_f32(NULL) != 0);
    for (int i = 0; i < 6; ++i) CHECK(out[i] == 42);
    for (int i = 0; i < 3; ++i) CHECK(lse[i] == 42);
  }
  /* The extension: a refused target changes nothing. */
  {
    const char *before = attnprop_kernel_target();
    CHECK(attnprop_kernel_set_target("no-such-target") != 0);
    CHECK(strcmp(attnprop_kernel_target(), before) == 0);
    CHECK(attnprop_kernel_target_supported("scalar") == 1);
    CHECK(attnprop_kernel_set_threads(-3) != 0);
    /* The target list: "scalar" first, the active target among the names. */
    CHECK(attnprop_kernel_target_count() >= 1);
    CHECK(attnprop_kernel_target_name(0) != NULL && strcmp(attnprop_kernel_target_name(0), "scalar") == 0);
    CHECK(attnprop_kernel_target_name(attnprop_kernel_target_count()) == NULL);
    int listed = 0;
    for (int i = 0; i < attnprop_kernel_target_count(); ++i)
      listed += strcmp(attnprop_kernel_target_name(i), attnprop_kernel_target()) == 0;
    CHECK(listed == 1);
  }
  if (failures != 0) {
    fprintf(stderr, "abi_c_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("abi_c_test: all checks passed\n");
  return 0;
}
