/* gemm_sweep.cu — times cuBLASLt GEMMs on this GPU at listed shapes and writes
 * them as a kernel table in the layout `calibrate --tables` imports
 * (../shared/data/silicon/<gpu>/<engine>/gemm_perf.csv.gz: op_name,
 * kernel_source, gemm_dtype, m, n, k, latency in ms).  It lets a GPU host
 * check the shipped AIConfigurator tables against a measurement of its own
 * (tools/gemm_compare.sh joins the two).
 *
 *   gemm_sweep SHAPES [--passes P] [--budget-s S] > gemm_perf.csv
 *
 * SHAPES: one "dtype m n k" per line, dtype bfloat16 or fp8 (per-tensor
 * e4m3 operands, bf16 output, the kernel TensorRT-LLM's fp8 Linear runs).
 * Each shape is y[m,n] = x[m,k] . W[n,k]^T (nn.Linear, TN in cuBLAS's
 * column-major terms), fp32 accumulation, the algorithm cuBLASLt's heuristic
 * ranks first, a 32 MiB workspace.
 *
 * The timing follows AIConfigurator's collector (collector/helper.py
 * benchmark_with_power and collector/trtllm/collect_gemm.py, Apache-2.0;
 * read, not copied): c = clamp(ceil(L2 bytes / weight bytes), 1, 5) distinct
 * weight copies so repeated calls do not run from L2, one CUDA graph holding
 * the c calls, 3 warm-up replays, 6 timed replays between two CUDA events,
 * latency = elapsed / (6 c).  Operands hold pseudo-random values in [-1, 1)
 * (zeros run faster).  Pass p > 1 walks the list in reverse order; every pass
 * writes its own rows (the tables' repeats).  A shape cuBLASLt cannot run is
 * reported on stderr and skipped; --budget-s stops between shapes.  As in
 * AIConfigurator's tables, a shape whose c copies fit in L2 together (bf16
 * n x k under about L2 / 10 bytes) can still be served from it. */
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUPS 3
#define RUNS 6
#define MAX_COPIES 5
#define WORKSPACE ((size_t)32 << 20)

typedef struct {
    int fp8; /* 0: bfloat16, 1: fp8 */
    long m, n, k;
} shape;

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 1;
    fprintf(stderr, "gemm_sweep: %s: %s\n", what, cudaGetErrorString(e));
    return 0;
}

static int lt_ok(cublasStatus_t s, const char *what)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return 1;
    fprintf(stderr, "gemm_sweep: %s: cublas status %d\n", what, (int)s);
    return 0;
}

/* Fill n elements of 1 or 2 bytes with values in [-1, 1) from a hash. */
__global__ void fill(void *p, size_t n, int fp8, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)(i * 2654435761u) ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        float v = (float)(h & 0xffff) / 32768.0f - 1.0f;
        if (fp8)
            ((__nv_fp8_e4m3 *)p)[i] = __nv_fp8_e4m3(v);
        else
            ((__nv_bfloat16 *)p)[i] = __float2bfloat16(v);
    }
}

static int read_shapes(const char *path, shape **out, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gemm_sweep: %s: cannot open\n", path);
        return 0;
    }
    int cap = 0, n = 0, line = 0;
    shape *v = NULL;
    char dt[32];
    shape s;
    char buf[256];
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (buf[0] == '#' || buf[0] == '\n')
            continue;
        if (sscanf(buf, "%31s %ld %ld %ld", dt, &s.m, &s.n, &s.k) != 4 || s.m < 1 || s.n < 1 ||
            s.k < 1 || (strcmp(dt, "bfloat16") && strcmp(dt, "fp8"))) {
            fprintf(stderr, "gemm_sweep: %s:%d: want 'bfloat16|fp8 m n k' with m, n, k >= 1\n",
                    path, line);
            fclose(f);
            free(v);
            return 0;
        }
        s.fp8 = !strcmp(dt, "fp8");
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            v = (shape *)realloc(v, cap * sizeof *v);
        }
        v[n++] = s;
    }
    fclose(f);
    *out = v;
    *count = n;
    return n > 0;
}

typedef struct {
    cublasLtHandle_t lt;
    void *workspace;
    size_t l2_bytes;
    cudaStream_t stream;
} ctx;

/* Time one shape; returns the latency in ms or a negative value when cuBLASLt
 * cannot run it. */
static double time_shape(ctx *c, const shape *s)
{
    size_t elt = s->fp8 ? 1 : 2, wbytes = (size_t)s->n * s->k * elt;
    int copies = (int)((c->l2_bytes + wbytes - 1) / wbytes);
    copies = copies < 1 ? 1 : copies > MAX_COPIES ? MAX_COPIES : copies;
    void *w[MAX_COPIES] = {0}, *x = NULL, *y = NULL;
    double ms = -1;
    cublasLtMatmulDesc_t op = NULL;
    cublasLtMatrixLayout_t la = NULL, lb = NULL, lc = NULL;
    cublasLtMatmulPreference_t pref = NULL;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    cudaDataType_t in = s->fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    cublasLtMatmulHeuristicResult_t heur;
    int found = 0;
    float alpha = 1.0f, beta = 0.0f;
    float elapsed = 0;
    size_t ws = WORKSPACE;
    int captured;

    for (int i = 0; i < copies; i++)
        if (!cuda_ok(cudaMalloc(&w[i], wbytes), "weights"))
            goto done;
    if (!cuda_ok(cudaMalloc(&x, (size_t)s->m * s->k * elt), "input") ||
        !cuda_ok(cudaMalloc(&y, (size_t)s->m * s->n * 2), "output"))
        goto done;
    for (int i = 0; i < copies; i++)
        fill<<<1024, 256>>>(w[i], (size_t)s->n * s->k, s->fp8, 17u + i);
    fill<<<1024, 256>>>(x, (size_t)s->m * s->k, s->fp8, 5u);
    /* Column-major: D[n,m] = W^T[n,k] . x[k,m]; W stored k-major (ld k). */
    if (!lt_ok(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "desc") ||
        !lt_ok(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta),
               "transa") ||
        !lt_ok(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb),
               "transb") ||
        !lt_ok(cublasLtMatrixLayoutCreate(&la, in, s->k, s->n, s->k), "layout a") ||
        !lt_ok(cublasLtMatrixLayoutCreate(&lb, in, s->k, s->m, s->k), "layout b") ||
        !lt_ok(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16BF, s->n, s->m, s->n), "layout c") ||
        !lt_ok(cublasLtMatmulPreferenceCreate(&pref), "preference"))
        goto done;
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                                         sizeof ws);
    if (cublasLtMatmulAlgoGetHeuristic(c->lt, op, la, lb, lc, lc, pref, 1, &heur, &found) !=
            CUBLAS_STATUS_SUCCESS ||
        found < 1) {
        fprintf(stderr, "gemm_sweep: %s %ld %ld %ld: no cuBLASLt algorithm\n",
                s->fp8 ? "fp8" : "bfloat16", s->m, s->n, s->k);
        goto done;
    }
    if (!cuda_ok(cudaDeviceSynchronize(), "fill") ||
        !cuda_ok(cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal), "capture"))
        goto done;
    captured = 1; /* a call refused in the capture leaves a graph that times nothing */
    for (int i = 0; i < copies; i++)
        captured &= lt_ok(cublasLtMatmul(c->lt, op, &alpha, w[i], la, x, lb, &beta, y, lc, y, lc,
                                         &heur.algo, c->workspace, WORKSPACE, c->stream),
                          "matmul");
    if (!cuda_ok(cudaStreamEndCapture(c->stream, &graph), "end capture") || !captured ||
        !cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "instantiate"))
        goto done;
    for (int r = 0; r < WARMUPS; r++)
        if (!cuda_ok(cudaGraphLaunch(exec, c->stream), "launch"))
            goto done;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaEventRecord(e0, c->stream);
    for (int r = 0; r < RUNS; r++)
        cudaGraphLaunch(exec, c->stream);
    cudaEventRecord(e1, c->stream);
    if (cuda_ok(cudaEventSynchronize(e1), "run") && cuda_ok(cudaGetLastError(), "launches") && cuda_ok(cudaEventElapsedTime(&elapsed, e0, e1),
                                                            "elapsed"))
        ms = elapsed / (double)(RUNS * copies);
done:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    if (exec)
        cudaGraphExecDestroy(exec);
    if (graph)
        cudaGraphDestroy(graph);
    if (pref)
        cublasLtMatmulPreferenceDestroy(pref);
    if (lc)
        cublasLtMatrixLayoutDestroy(lc);
    if (lb)
        cublasLtMatrixLayoutDestroy(lb);
    if (la)
        cublasLtMatrixLayoutDestroy(la);
    if (op)
        cublasLtMatmulDescDestroy(op);
    for (int i = 0; i < copies; i++)
        cudaFree(w[i]);
    cudaFree(x);
    cudaFree(y);
    cudaGetLastError(); /* a failed shape must not poison the next one */
    return ms;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int passes = 2;
    double budget = 1e9;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--passes") && i + 1 < argc)
            passes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--budget-s") && i + 1 < argc)
            budget = atof(argv[++i]);
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            fprintf(stderr, "usage: gemm_sweep SHAPES [--passes P (1..10)] [--budget-s S]\n");
            return 2;
        }
    }
    shape *v = NULL;
    int n = 0;
    if (!path || passes < 1 || passes > 10 || !(budget > 0)) {
        fprintf(stderr, "usage: gemm_sweep SHAPES [--passes P (1..10)] [--budget-s S]\n");
        return 2;
    }
    if (!read_shapes(path, &v, &n))
        return 2;
    ctx c;
    cudaDeviceProp prop;
    int lt_version = (int)cublasLtGetVersion();
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "device") ||
        !cuda_ok(cudaMalloc(&c.workspace, WORKSPACE), "workspace") ||
        !cuda_ok(cudaStreamCreate(&c.stream), "stream") ||
        !lt_ok(cublasLtCreate(&c.lt), "cublasLtCreate"))
        return 1;
    c.l2_bytes = (size_t)prop.l2CacheSize;
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    printf("# source: roofline calib/gemm_sweep.cu (cuBLASLt %d), measured %s, %d passes\n",
           lt_version, date, passes);
    printf("# framework: cuBLASLt\n# version: %d\n# device: %s\n", lt_version, prop.name);
    printf("# latency unit: milliseconds per call\n");
    printf("op_name,kernel_source,gemm_dtype,m,n,k,latency\n");
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rows = 0, skipped = 0;
    for (int p = 0; p < passes; p++)
        for (int j = 0; j < n; j++) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (t.tv_nsec - t0.tv_nsec) > budget) {
                fprintf(stderr, "gemm_sweep: --budget-s %.0f reached at pass %d shape %d\n",
                        budget, p + 1, j);
                goto out;
            }
            const shape *s = &v[p % 2 ? n - 1 - j : j];
            double ms = time_shape(&c, s);
            if (ms > 0) {
                printf("gemm,cublaslt,%s,%ld,%ld,%ld,%.6g\n", s->fp8 ? "fp8" : "bfloat16", s->m,
                       s->n, s->k, ms);
                rows++;
            } else
                skipped++;
        }
out:
    fflush(stdout);
    fprintf(stderr, "gemm_sweep: %d rows, %d shapes skipped\n", rows, skipped);
    cublasLtDestroy(c.lt);
    cudaStreamDestroy(c.stream);
    cudaFree(c.workspace);
    free(v);
    return 0;
}
