/* cuda_backend.cu — the CUDA backend: cuBLAS GEMMs with bf16 weights and
 * activations rounded to bf16 (fp32 accumulate and output), own kernels for
 * RMSNorm, RoPE, SwiGLU, adds, embedding, KV page writes, causal prefill
 * attention and paged GQA decode attention (fp32).  Implements backend.h on
 * device 0; every kernel is checked against the CPU backend in
 * tests/test_cuda.c.  Uses CUDA runtime, cuBLAS. */
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "backend.h"
}

typedef struct {
    cublasHandle_t blas;
    __nv_bfloat16 *xb; /* bf16 copy of a matmul input */
    size_t xb_n;
    int *ints; /* device copy of an index array */
    size_t ints_n;
    int *ints2;
    size_t ints2_n;
    int *stage; /* pinned host ring the index arrays are copied through */
    size_t stage_at;
} cuda_ctx;

#define STAGE_INTS ((size_t)1 << 20) /* 4 MiB of pinned staging */

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "cuda backend: %s: %s\n", #call, cudaGetErrorString(e_));              \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static int grid(size_t n, int block) { return (int)((n + block - 1) / block); }

/* Device copy of a host int array (grown as needed), queued: the array is
 * copied into the pinned ring and sent with cudaMemcpyAsync, which from
 * pinned memory returns at once ("API synchronization behavior", CUDA
 * runtime documentation), where cudaMemcpy from pageable memory synchronises
 * the stream first: five such copies a layer drained the queue between the
 * kernels of a step.  The ring is reused after a device synchronisation
 * (every copy sent from it done); an array larger than it goes synchronously.
 * Safe because every copy and kernel of this backend runs on the legacy
 * default stream (cuBLAS's too): a device buffer reused by the next call is
 * written only after the kernels queued before have read it. */
static int *dev_ints(cuda_ctx *c, int **buf, size_t *cap, const int *host, size_t n)
{
    if (n > *cap) {
        CK(cudaDeviceSynchronize()); /* queued kernels may still read the old buffer */
        if (*buf)
            CK(cudaFree(*buf));
        CK(cudaMalloc((void **)buf, n * sizeof(int)));
        *cap = n;
    }
    if (n > STAGE_INTS) {
        CK(cudaMemcpy(*buf, host, n * sizeof(int), cudaMemcpyHostToDevice));
        return *buf;
    }
    if (c->stage_at + n > STAGE_INTS) {
        CK(cudaDeviceSynchronize());
        c->stage_at = 0;
    }
    int *s = c->stage + c->stage_at;
    memcpy(s, host, n * sizeof(int));
    c->stage_at += n;
    CK(cudaMemcpyAsync(*buf, s, n * sizeof(int), cudaMemcpyHostToDevice, 0));
    return *buf;
}

static float *cu_alloc(void *ctx, size_t n)
{
    (void)ctx;
    float *p = NULL;
    if (cudaMalloc((void **)&p, (n ? n : 1) * sizeof(float)) != cudaSuccess)
        return NULL;
    CK(cudaMemset(p, 0, (n ? n : 1) * sizeof(float)));
    return p;
}

static void cu_free(void *ctx, void *p)
{
    (void)ctx;
    cudaFree(p);
}

static void cu_to_dev(void *ctx, float *dst, const float *src, size_t n)
{
    (void)ctx;
    CK(cudaMemcpy(dst, src, n * sizeof(float), cudaMemcpyHostToDevice));
}

static void cu_to_host(void *ctx, float *dst, const float *src, size_t n)
{
    (void)ctx;
    CK(cudaMemcpy(dst, src, n * sizeof(float), cudaMemcpyDeviceToHost));
}

static void *cu_upload(void *ctx, const float *host, size_t n)
{
    (void)ctx;
    __nv_bfloat16 *h = (__nv_bfloat16 *)malloc((n ? n : 1) * sizeof *h), *d = NULL;
    if (!h)
        return NULL;
    for (size_t i = 0; i < n; i++)
        h[i] = __float2bfloat16(host[i]);
    if (cudaMalloc((void **)&d, (n ? n : 1) * sizeof *d) != cudaSuccess) {
        free(h);
        return NULL;
    }
    CK(cudaMemcpy(d, h, n * sizeof *d, cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static void cu_sync(void *ctx)
{
    (void)ctx;
    CK(cudaDeviceSynchronize());
}

__global__ void to_bf16(const float *x, __nv_bfloat16 *y, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __float2bfloat16(x[i]);
}

static void cu_matmul(void *vctx, const float *x, const void *w, float *y, int M, int N, int K)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    size_t n = (size_t)M * K;
    if (n > c->xb_n) {
        if (c->xb)
            CK(cudaFree(c->xb));
        CK(cudaMalloc((void **)&c->xb, n * sizeof *c->xb));
        c->xb_n = n;
    }
    to_bf16<<<grid(n, 256), 256>>>(x, c->xb, n);
    float one = 1.0f, zero = 0.0f;
    /* column-major view: y^T (N, M) = W (N, K) x^T (K, M) */
    cublasStatus_t s = cublasGemmEx(c->blas, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &one, w, CUDA_R_16BF, K,
                                    c->xb, CUDA_R_16BF, K, &zero, y, CUDA_R_32F, N,
                                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cuda backend: cublasGemmEx(%d, %d, %d) failed: %d\n", M, N, K, (int)s);
        abort();
    }
}

/* Sum of v over the block (blockDim.x a multiple of 32, <= 1024). */
__device__ float block_sum(float v, float *sh)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0)
        sh[wid] = v;
    __syncthreads();
    float t = 0;
    for (int i = 0; i < (int)(blockDim.x >> 5); i++)
        t += sh[i];
    return t;
}

__device__ float block_max(float v, float *sh)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0)
        sh[wid] = v;
    __syncthreads();
    float t = -INFINITY;
    for (int i = 0; i < (int)(blockDim.x >> 5); i++)
        t = fmaxf(t, sh[i]);
    return t;
}

__global__ void rmsnorm_k(const float *x, const float *g, float *y, int D, float eps)
{
    __shared__ float sh[32];
    const float *xr = x + (size_t)blockIdx.x * D;
    float *yr = y + (size_t)blockIdx.x * D;
    float ss = 0;
    for (int i = threadIdx.x; i < D; i += blockDim.x)
        ss += xr[i] * xr[i];
    ss = block_sum(ss, sh);
    float r = rsqrtf(ss / D + eps);
    for (int i = threadIdx.x; i < D; i += blockDim.x)
        yr[i] = xr[i] * r * g[i];
}

static void cu_rmsnorm(void *ctx, const float *x, const float *g, float *y, int M, int D, float eps)
{
    (void)ctx;
    rmsnorm_k<<<M, 256>>>(x, g, y, D, eps);
}

__global__ void rope_k(float *x, const int *pos, int M, int nh, int hd, float theta)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, half = hd / 2;
    if (i >= (size_t)M * nh * half)
        return;
    int p = (int)(i % half), m = (int)(i / (half * nh));
    float ang = pos[m] * powf(theta, -2.0f * p / hd);
    float c, s;
    sincosf(ang, &s, &c);
    float *q = x + (i / half) * hd + 2 * p;
    float a = q[0], b = q[1];
    q[0] = a * c - b * s;
    q[1] = a * s + b * c;
}

static void cu_rope(void *vctx, float *x, const int *pos, int M, int nh, int hd, float theta)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    int *d = dev_ints(c, &c->ints, &c->ints_n, pos, (size_t)M);
    size_t n = (size_t)M * nh * (hd / 2);
    rope_k<<<grid(n, 256), 256>>>(x, d, M, nh, hd, theta);
}

__global__ void swiglu_k(const float *g, const float *u, float *o, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = g[i] / (1.0f + expf(-g[i])) * u[i];
}

static void cu_swiglu(void *ctx, const float *gate, const float *up, float *out, size_t n)
{
    (void)ctx;
    swiglu_k<<<grid(n, 256), 256>>>(gate, up, out, n);
}

__global__ void add_k(float *x, const float *y, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += y[i];
}

static void cu_add(void *ctx, float *x, const float *y, size_t n)
{
    (void)ctx;
    add_k<<<grid(n, 256), 256>>>(x, y, n);
}

static void cu_copy(void *ctx, float *dst, const float *src, size_t n)
{
    (void)ctx;
    CK(cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToDevice));
}

/* Row gather: out[r] = src[idx[r]] for rows of `row` floats. */
__global__ void gather_k(const float *src, const int *idx, float *out, int rows, int row)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < (size_t)rows * row)
        out[i] = src[(size_t)idx[i / row] * row + i % row];
}

static void cu_embed(void *vctx, const float *table, const int *tok, float *out, int M, int D)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    int *d = dev_ints(c, &c->ints, &c->ints_n, tok, (size_t)M);
    gather_k<<<grid((size_t)M * D, 256), 256>>>(table, d, out, M, D);
}

/* K and V rows to their slots in one launch: element i < M * row of k,
 * then of v. */
__global__ void kv_scatter_k(const float *k, const float *v, const int *slot, float *kp,
                             float *vp, int M, int row)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, n = (size_t)M * row;
    if (i >= 2 * n)
        return;
    int second = i >= n;
    size_t j = second ? i - n : i;
    (second ? vp : kp)[(size_t)slot[j / row] * row + j % row] = (second ? v : k)[j];
}

static void cu_kv_write(void *vctx, const float *k, const float *v, float *kp, float *vp,
                        const int *slots, int M, int kvh, int hd)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    int *d = dev_ints(c, &c->ints, &c->ints_n, slots, (size_t)M);
    int row = kvh * hd;
    kv_scatter_k<<<grid(2 * (size_t)M * row, 256), 256>>>(k, v, d, kp, vp, M, row);
}

/* One block per (query row, head): scores over `n` keys in shared memory,
 * softmax, then P V.  Key j of the sequence is row kidx(j) of k/v with
 * row stride `stride`; for decode the block table maps j to its page. */
__global__ void attn_k(const float *q, const float *k, const float *v, float *o, int nh, int kvh,
                       int hd, int causal, const int *blocks, const int *len, int max_blocks,
                       int page)
{
    extern __shared__ float s[];
    __shared__ float red[32];
    int row = blockIdx.x, n = blockIdx.y, kh = n / (nh / kvh);
    int L = causal ? row + 1 : len[row];
    const float *qr = q + ((size_t)row * nh + n) * hd;
    const int *bt = blocks ? blocks + (size_t)row * max_blocks : NULL;
    float scale = rsqrtf((float)hd);
    for (int j = threadIdx.x; j < L; j += blockDim.x) {
        size_t r = bt ? (size_t)bt[j / page] * page + j % page : (size_t)j;
        const float *kr = k + (r * kvh + kh) * hd;
        float d = 0;
        for (int i = 0; i < hd; i++)
            d += qr[i] * kr[i];
        s[j] = d * scale;
    }
    float mx = -INFINITY;
    for (int j = threadIdx.x; j < L; j += blockDim.x)
        mx = fmaxf(mx, s[j]);
    mx = block_max(mx, red);
    float sum = 0;
    for (int j = threadIdx.x; j < L; j += blockDim.x) {
        s[j] = expf(s[j] - mx);
        sum += s[j];
    }
    sum = block_sum(sum, red);
    __syncthreads();
    for (int i = threadIdx.x; i < hd; i += blockDim.x) {
        float acc = 0;
        for (int j = 0; j < L; j++) {
            size_t r = bt ? (size_t)bt[j / page] * page + j % page : (size_t)j;
            acc += s[j] * v[(r * kvh + kh) * hd + i];
        }
        o[((size_t)row * nh + n) * hd + i] = acc / sum;
    }
}

static void cu_attn_prefill(void *ctx, const float *q, const float *k, const float *v, float *o,
                            int T, int nh, int kvh, int hd)
{
    (void)ctx;
    dim3 g((unsigned)T, (unsigned)nh);
    attn_k<<<g, 128, (size_t)T * sizeof(float)>>>(q, k, v, o, nh, kvh, hd, 1, NULL, NULL, 0, 1);
}

static void cu_attn_decode(void *vctx, const float *q, const float *kp, const float *vp,
                           const int *blocks, const int *len, int B, int max_blocks, int page,
                           int nh, int kvh, int hd, float *o)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    int maxlen = 0;
    for (int b = 0; b < B; b++)
        maxlen = len[b] > maxlen ? len[b] : maxlen;
    int *db = dev_ints(c, &c->ints, &c->ints_n, blocks, (size_t)B * max_blocks);
    int *dl = dev_ints(c, &c->ints2, &c->ints2_n, len, (size_t)B);
    dim3 g((unsigned)B, (unsigned)nh);
    attn_k<<<g, 128, (size_t)maxlen * sizeof(float)>>>(q, kp, vp, o, nh, kvh, hd, 0, db, dl,
                                                       max_blocks, page);
}

static void cu_destroy(void *vctx)
{
    cuda_ctx *c = (cuda_ctx *)vctx;
    if (!c)
        return;
    cudaFree(c->xb);
    cudaFree(c->ints);
    cudaFree(c->ints2);
    cudaFreeHost(c->stage);
    cublasDestroy(c->blas);
    free(c);
}

extern "C" int rl_backend_cuda(rl_backend *out, char *err, size_t errlen)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        snprintf(err, errlen, "backend 'cuda': no GPU visible (cudaGetDeviceCount: %d)", n);
        return -1;
    }
    cuda_ctx *c = (cuda_ctx *)calloc(1, sizeof *c);
    if (!c || cudaSetDevice(0) != cudaSuccess || cublasCreate(&c->blas) != CUBLAS_STATUS_SUCCESS ||
        cudaHostAlloc((void **)&c->stage, STAGE_INTS * sizeof(int), cudaHostAllocDefault) !=
            cudaSuccess) {
        snprintf(err, errlen, "backend 'cuda': %s", c && c->blas
                 ? "cannot allocate its 4 MiB of pinned host memory (cudaHostAlloc)"
                 : "cannot initialise device 0 / cuBLAS");
        if (c && c->blas)
            cublasDestroy(c->blas);
        free(c);
        return -1;
    }
    memset(out, 0, sizeof *out);
    out->name = "cuda";
    out->ctx = c;
    out->weight_bytes = 2;
    out->compute_dtype = "bf16";
    out->queued = 1;
    out->alloc = cu_alloc;
    out->free = cu_free;
    out->to_dev = cu_to_dev;
    out->to_host = cu_to_host;
    out->upload_weight = cu_upload;
    out->sync = cu_sync;
    out->matmul = cu_matmul;
    out->rmsnorm = cu_rmsnorm;
    out->rope = cu_rope;
    out->swiglu = cu_swiglu;
    out->add = cu_add;
    out->copy = cu_copy;
    out->embed = cu_embed;
    out->kv_write = cu_kv_write;
    out->attn_prefill = cu_attn_prefill;
    out->attn_decode = cu_attn_decode;
    out->destroy = cu_destroy;
    return 0;
}
