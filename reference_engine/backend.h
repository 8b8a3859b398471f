/* backend.h — the reference engine's compute backend: an interface table
 * plus an opaque context (the ggml pattern).
 *
 * Owns the kernel signatures every backend implements.  Tensors are
 * row-major fp32 activations; weights are stored in the backend's own format
 * (cpu: fp32, cuda: bf16) behind a `const void *` returned by upload_weight.
 * Index arrays (tok, pos, blocks, len) are always host memory.
 * Shapes are given as (rows, cols) in the comments; every pointer is in the
 * backend's memory (host for cpu, device for cuda).  Uses nothing else. */
#ifndef RL_BACKEND_H
#define RL_BACKEND_H

#include <stddef.h>

typedef struct rl_backend {
    const char *name;
    void *ctx;
    int weight_bytes;          /* bytes per stored weight element: 4 cpu, 2 cuda */
    const char *compute_dtype; /* the matmul dtype: "fp32" cpu, "bf16" cuda */
    int queued;                /* 1: a call returns before its work ends (cuda: one
                                  stream), so back-to-back calls overlap their launches
                                  with the device's work; 0: it returns when done (cpu) */
    /* Activation buffer of n floats (zeroed), or NULL. */
    float *(*alloc)(void *ctx, size_t n);
    void (*free)(void *ctx, void *p);
    /* Copy n floats host -> backend / backend -> host. */
    void (*to_dev)(void *ctx, float *dst, const float *src, size_t n);
    void (*to_host)(void *ctx, float *dst, const float *src, size_t n);
    /* Store a weight matrix given as fp32 host data of n floats; NULL on OOM. */
    void *(*upload_weight)(void *ctx, const float *host, size_t n);
    /* Wait until every queued kernel finished (timers call it). */
    void (*sync)(void *ctx);

    /* y (M, N) = x (M, K) @ W^T, W (N, K) as uploaded (HF "out x in" layout). */
    void (*matmul)(void *ctx, const float *x, const void *w, float *y, int M, int N, int K);
    /* y (M, D) = x / rms(x) * g, rms over each row, g (D). */
    void (*rmsnorm)(void *ctx, const float *x, const float *g, float *y, int M, int D, float eps);
    /* Rotate pairs (2i, 2i+1) of every head of x (M, nh * hd) in place by
     * angle pos[m] * theta^(-2i/hd) (RoFormer, Su et al. 2021, eq. 34). */
    void (*rope)(void *ctx, float *x, const int *pos, int M, int nh, int hd, float theta);
    /* out (n) = silu(gate) * up (Shazeer 2020, "GLU variants"). */
    void (*swiglu)(void *ctx, const float *gate, const float *up, float *out, size_t n);
    /* x (n) += y (n): the residual connection. */
    void (*add)(void *ctx, float *x, const float *y, size_t n);
    /* dst (n) = src (n): the stream-bandwidth kernel of calibration. */
    void (*copy)(void *ctx, float *dst, const float *src, size_t n);
    /* out (M, D) = table[tok[m]] with table (V, D) fp32. */
    void (*embed)(void *ctx, const float *table, const int *tok, float *out, int M, int D);
    /* Write row m of k, v (M, kvh * hd) to slot slots[m] of the page pools
     * kp, vp (pages x page slots of kvh * hd): slot = page number x page
     * size + offset in the page, one call for a step's rows whatever their
     * sequences (vLLM's slot_mapping, csrc/cache_kernels.cu reshape_and_cache). */
    void (*kv_write)(void *ctx, const float *k, const float *v, float *kp, float *vp,
                     const int *slots, int M, int kvh, int hd);
    /* Causal attention of one prompt: q (T, nh*hd), k, v (T, kvh*hd) ->
     * o (T, nh*hd), head n reading kv head n / (nh / kvh); scale 1/sqrt(hd). */
    void (*attn_prefill)(void *ctx, const float *q, const float *k, const float *v, float *o,
                         int T, int nh, int kvh, int hd);
    /* Paged decode attention (Kwon et al. 2023, PagedAttention): one query
     * token per slot, q (B, nh*hd); slot b has len[b] cached tokens whose
     * pages are blocks[b * max_blocks + i]; o (B, nh*hd). */
    void (*attn_decode)(void *ctx, const float *q, const float *kp, const float *vp,
                        const int *blocks, const int *len, int B, int max_blocks, int page,
                        int nh, int kvh, int hd, float *o);
    /* Release the context. */
    void (*destroy)(void *ctx);
    /* The clock kernels and steps are timed by (calibrate, validate,
     * validate-serve, the engine's timers), seconds; NULL: CLOCK_MONOTONIC,
     * the wall clock.  The CPU backend on one thread reads the calling
     * thread's CPU time (CLOCK_THREAD_CPUTIME_ID): every kernel runs on that
     * thread, so on an idle host it is the wall time, and on a shared one it
     * leaves out the time slices other processes take (measured stop 27: a
     * decode-attention call read 2-4x its quiet wall time at load 4-8 on the
     * 2-core VM; docs/validation.md). */
    double (*clock)(void *ctx);
    const char *clock_name; /* what `clock` reads, for outputs; NULL: "wall" */
} rl_backend;

/* be's clock (seconds; an arbitrary origin), and its name. */
double rl_backend_clock(const rl_backend *be);
const char *rl_backend_clock_name(const rl_backend *be);

/* The CPU backend (OpenBLAS GEMMs, OpenMP kernels).  `threads` <= 0 means
 * every core.  Returns 0 or -1 with err set. */
int rl_backend_cpu(rl_backend *out, int threads, char *err, size_t errlen);

/* The CUDA backend on device 0 (cuBLAS bf16 GEMMs, own kernels).  Returns
 * -1 with err set when built without CUDA or when no GPU is visible. */
int rl_backend_cuda(rl_backend *out, char *err, size_t errlen);

/* "cpu" (on `threads` threads; <= 0: every core) or "cuda" (threads
 * ignored); -1 with err set for another name. */
int rl_backend_open(const char *name, int threads, rl_backend *out, char *err, size_t errlen);

#endif
