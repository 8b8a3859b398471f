/* workload.h — request workloads for the serving simulator: the seeded
 * PRNG, token-length distributions, Poisson and gamma (bursty) arrivals at
 * a QPS, and trace CSV files.
 *
 * Owns the request record (arrival, prompt and output tokens, shared
 * prefix), the DIST syntax of --prompt/--output and the trace format.
 * Uses csv.h (RFC 4180 fields), number.h and report.h.  SI units: seconds,
 * tokens. */
#ifndef RL_WORKLOAD_H
#define RL_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

/* ---- PRNG and distributions ---------------------------------------- */

/* xoshiro256** (Blackman & Vigna, https://prng.di.unimi.it/), state seeded
 * by splitmix64 from one 64-bit seed: the same seed gives the same
 * workload on every platform. */
typedef struct {
    uint64_t s[4];
} rl_rng;

void rl_rng_seed(rl_rng *r, uint64_t seed);
uint64_t rl_rng_next(rl_rng *r);
double rl_rng_uniform(rl_rng *r); /* in (0, 1): 53 random bits, never 0 */

typedef enum { RL_DIST_FIXED, RL_DIST_UNIFORM, RL_DIST_LOGNORMAL, RL_DIST_TRACE } rl_dist_kind;

/* A token-length distribution.  Syntax (rl_dist_parse):
 *   "2000"                 fixed 2000 tokens
 *   "uniform:100:4000"     integer uniform in [100, 4000]
 *   "lognormal:MEAN:SIGMA" lognormal with that MEAN (tokens) and log-space
 *                          SIGMA: mu = ln(MEAN) - SIGMA^2/2; rounded, >= 1
 *   "trace"                lengths from the trace file */
typedef struct {
    rl_dist_kind kind;
    double a, b; /* fixed: a; uniform: [a, b]; lognormal: mean a, sigma b */
} rl_dist;

/* Returns 0, or -1 with err "FIELD: reason" (field names the flag). */
int rl_dist_parse(const char *s, const char *field, rl_dist *out, char *err, size_t errlen);
/* d as the DIST text rl_dist_parse reads back to it ("2000",
 * "uniform:100:4000", "lognormal:2000:0.8", "trace") into buf; returns buf.
 * The JSON's record of a workload (size's prompt_len and out_len). */
const char *rl_dist_format(const rl_dist *d, char *buf, size_t len);
/* A sample >= 1 (tokens); trace distributions are not sampled here. */
int rl_dist_sample(const rl_dist *d, rl_rng *r);
/* The distribution's mean in tokens. */
double rl_dist_mean(const rl_dist *d);

/* ---- workload ------------------------------------------------------- */

typedef struct {
    double arrival; /* seconds from the start */
    int prompt;     /* P: prompt tokens */
    int output;     /* G: output tokens (the first comes from prefill) */
    int prefix_id;  /* shared-prefix id, -1 for none */
    int prefix_len; /* tokens of the prompt that are the shared prefix */
} rl_request;

/* The most requests one simulated workload may hold, for `simulate
 * --requests` and roofline.simulate{requests=} alike: 1e7 requests are
 * about 1.8 GB in the simulator (rl_serve_bytes_per_request, 180 bytes) and
 * a few seconds of setup.  Our stated bound, not from a source: 1e8 (16 GB)
 * was the bound until tester6 saw 11 GB taken and 13 s of setup before a
 * Ctrl-C was answered; 1e7 is 500x the default and far past where p99
 * settles. */
#define RL_REQUESTS_MAX 10000000LL

typedef enum { RL_ARRIVAL_POISSON, RL_ARRIVAL_GAMMA } rl_arrival_kind;

typedef struct {
    long long n;          /* requests */
    double qps;           /* mean arrival rate, requests/s */
    rl_arrival_kind arrival;
    double burst_cv;      /* gamma: coefficient of variation of inter-arrival times (>1 burstier) */
    rl_dist prompt, output;
    int prefixes;         /* synthetic shared prefixes: ids drawn uniformly in [0, prefixes) */
    int prefix_len;       /* their length (tokens, capped at the prompt) */
    uint64_t seed;
    long long max_context; /* > 0: a request whose prompt + output exceeds it is drawn
                              again (rl_requests_redraw) */
} rl_workload;

/* "N:LEN" (--prefixes, Lua `prefixes`) into w->prefixes and w->prefix_len:
 * N >= 1 shared prefixes of LEN >= 1 tokens, whole numbers (0 of either
 * shares nothing and was taken silently: tester6's --prefixes 0:800).
 * Returns 0, or -1 with err saying what is expected. */
int rl_workload_prefixes(const char *s, rl_workload *w, char *err, size_t errlen);

/* Generate w->n requests into *out (malloc'd; caller frees); with
 * w->max_context > 0 those longer are drawn again under rl_requests_fit's
 * rule (over half: -1).  Returns 0 or -1 with err. */
int rl_workload_generate(const rl_workload *w, rl_request **out, char *err, size_t errlen);

/* rl_workload_generate, the count drawn again into *redrawn (0 without
 * max_context; NULL: not wanted). */
int rl_workload_generate_counted(const rl_workload *w, rl_request **out, long long *redrawn,
                                 char *err, size_t errlen);

/* Offline (benchmark) mode: every one of the n requests arrives at t = 0,
 * as in trtllm-bench's throughput mode and MLPerf Offline; w->qps is set to
 * 0 (no arrival rate).  The lengths stay as generated. */
void rl_requests_offline(rl_request *r, long long n, rl_workload *w);

/* One rule for requests longer than the model's context (prompt + output
 * > max_context; tester30 F3): a server refuses such a request, it never
 * shortens it (vLLM: "The decoder prompt ... plus the number of requested
 * output tokens ... is longer than the maximum model length", a
 * ValueError, vllm-project/vllm tests/v1/e2e/test_context_length.py; its
 * OpenAI server answers 400).  So nothing is shortened: a --trace row that
 * long is refused (rl_trace_read: the trace's requests are exact, and
 * one the server cannot serve is an input error, exit 2), and a generator
 * never sends one: a draw that long is drawn again, as vLLM's benchmark
 * samplers skip such sequences until they have the requests asked for
 * (vllm/benchmarks/datasets.py is_valid_sequence), so the lengths follow
 * the distributions asked for restricted to what the model serves.  Here:
 * each request of r[0..n) over max_context (> 1) gets new lengths from
 * w's DISTs, drawn from a stream of its own (seeded by w->seed and its
 * index: the other requests stay as drawn) until they fit, at most
 * RL_WORKLOAD_REDRAWS tries; its prefix shrinks below a shorter prompt.
 * Returns the number redrawn, or -1 with err when a request finds no fit
 * (the lengths asked for mostly exceed the context). */
#define RL_WORKLOAD_REDRAWS 1000
long long rl_requests_redraw(rl_request *r, long long n, const rl_workload *w,
                             long long max_context, char *err, size_t errlen);

/* The requests of r[0..n) whose prompt + output exceed max_context (0 when
 * max_context <= 1). */
long long rl_requests_over(const rl_request *r, long long n, long long max_context);

/* The mean prompt and output lengths (tokens) of r[0..n) into *prompt and
 * *output (0 when n < 1): the lengths a run realised, which a DIST's MEAN
 * need not be (simulate's and size's mean_prompt_tokens and
 * mean_output_tokens; tester90 #1). */
void rl_requests_mean_lengths(const rl_request *r, long long n, double *prompt, double *output);

/* The fraction by which a realised mean may differ from the DIST's MEAN
 * before a caution says so: our stated threshold, not from a source (5%: a
 * sample of the default 4000 requests of lognormal:M:0.8 reads within
 * about 3% of M, 1.96 standard errors, so a larger gap is rarely noise). */
#define RL_WORKLOAD_MEAN_CAUTION 0.05

/* When a realised mean (mp prompt, mo output tokens, of n generated
 * requests from prompt and output, the share `redrawn` of them drawn
 * again over max_context) differs from its DIST's MEAN by more than
 * RL_WORKLOAD_MEAN_CAUTION, a caution into buf naming both means and the
 * cause (the redraw restricts the lengths to prompt + output <=
 * max_context, which cuts the DIST's long tail; else the sample's own
 * spread); returns 1, else 0 (buf untouched).  pname/oname: the names the
 * user gave the DISTs ("--prompt-len", or Lua's "prompt_len"). */
int rl_workload_mean_caution(const rl_dist *prompt, const rl_dist *output, const char *pname,
                             const char *oname, double mp, double mo, long long n,
                             double redrawn, long long max_context, char *buf, size_t len);

/* The one decision on that caution for simulate and size, the CLI's and
 * Lua's (stop 52 fixTG): rl_workload_mean_caution of w's DISTs into buf,
 * but never for a trace (its lengths are its own, trace 1); returns buf
 * when a caution applies, else NULL.  The CLI prints it on stderr and
 * every caller puts it in the JSON result as mean_length_note (NULL:
 * null), so a script learns what stderr says. */
const char *rl_workload_mean_note(const rl_workload *w, int trace, const char *pname,
                                  const char *oname, double mp, double mo, long long n,
                                  double redrawn, long long max_context, char *buf, size_t len);

/* The one check on a workload the user asked for (the CLI's simulate and
 * size, Lua's simulate and size, review30 M1): when more than half of the
 * n requests exceed max_context the lengths asked for are not what the
 * model serves, and redrawing them would simulate another workload: -1
 * with err naming the count; else rl_requests_redraw (the count redrawn,
 * or -1). */
long long rl_requests_fit(rl_request *r, long long n, const rl_workload *w, long long max_context,
                          char *err, size_t errlen);

/* Truncate requests to prompt + output <= max_context tokens (a model
 * cannot hold more): the output is cut to what the prompt leaves but never
 * below max_context / 2, then the prompt takes the rest; shared prefixes
 * shrink with it.  No-op when max_context
 * <= 1.  Returns the number of requests changed.  Only size's prompt-scale
 * what-if on a --trace (size.c make_requests: its prompts scaled, not the
 * user's requests) uses it; rl_requests_redraw's rule holds elsewhere. */
long long rl_requests_truncate(rl_request *r, long long n, long long max_context);

/* Read a trace CSV: one request per line, "arrival_s,prompt_tokens,
 * output_tokens[,prefix_id[,prefix_tokens]]" (fields may be quoted, csv.h);
 * an optional header line whose first field is not a number; '#' comments
 * and blank lines skipped.
 * prefix_tokens defaults to `default_prefix_len` (an error when that is 0
 * and a prefix id is given).  Arrivals must be non-decreasing.  A request
 * whose prompt_tokens + output_tokens exceed max_context (when > 0) is an
 * error naming the first such line and how many there are: a trace gives
 * exact requests, and a server refuses one longer than its context rather
 * than shorten it (vLLM: "The decoder prompt ... plus the number of requested
 * output tokens ... is longer than the maximum model length", a ValueError,
 * vllm-project/vllm tests/v1/e2e/test_context_length.py; its benchmark's
 * dataset samplers drop such requests before sending them,
 * vllm/benchmarks/datasets.py is_valid_sequence).  Generated requests that
 * long are drawn again (rl_requests_redraw: the one rule).  Returns the number of requests (>= 1) in
 * *out (malloc'd), or -1 with err "FILE:LINE: field 'F': reason". */
long long rl_trace_read(const char *path, int default_prefix_len, long long max_context,
                        rl_request **out, char *err, size_t errlen);

#endif
