# roofline — GNU make entry point.  `make help` lists the targets.

CC      ?= cc
PKGS    := lua5.4 libcjson
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
OPT     ?= -O2 -g
CFLAGS  += -std=c11 -D_DEFAULT_SOURCE $(OPT) -Wall -Wextra -Werror -MMD -MP -Isrc -Ireference_engine -Icalib $(PKG_CFLAGS) $(SAN)
LDFLAGS += $(SAN)
LDLIBS  += $(PKG_LIBS) -lz -lm -pthread

# BUILD holds objects, the library and test binaries; BIN is the CLI.
BUILD   ?= build
BIN     ?= bin/roofline

LIB_SRC := $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)

# The reference engine and calibration (issue 5): OpenBLAS + OpenMP; the
# CUDA backend joins only in `make cuda` builds (CUDA=1).  OpenBLAS is not
# linked: the CPU backend dlopen()s libopenblas.so.0 when first made
# (reference_engine/cpu/cpu_backend.c), so the commands that never run the
# engine, and valgrind's ~560 cases, do not map it (-ldl: dlopen on glibc
# before 2.34; an empty stub after).
ENGINE_SRC := $(wildcard reference_engine/*.c reference_engine/cpu/*.c calib/*.c)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/obj/%.o)
ENGINE_CFLAGS := -fopenmp
LIB_OBJ += $(ENGINE_OBJ)
LDLIBS  += -fopenmp -ldl
NVCC    ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA_ARCH := -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
ifeq ($(CUDA),1)
CUDA_HOME := $(patsubst %/bin/nvcc,%,$(NVCC))
LIB_OBJ += $(BUILD)/obj/reference_engine/cuda/cuda_backend.o
CFLAGS  += -DRL_HAVE_CUDA
LDLIBS  += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcublas -lcudart -lstdc++
endif
LIB     := $(BUILD)/libroofline.a
TEST_SRC := $(wildcard tests/test_*.c)
TESTS   := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(wildcard bench/bench_*.c)
BENCHES := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

.PHONY: all docs test test-install test-asan test-valgrind fuzz demo deps help clean install bench figures cuda cuda-compile calib collectives profiles presets test-presets test-opt-levels
all: $(BIN)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/reference_engine/%.o $(BUILD)/obj/calib/%.o: CFLAGS += $(ENGINE_CFLAGS)
$(BUILD)/obj/reference_engine/%.o: reference_engine/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/obj/calib/%.o: calib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
$(BUILD)/obj/reference_engine/cuda/%.o: reference_engine/cuda/%.cu reference_engine/backend.h
	@mkdir -p $(dir $@)
	$(NVCC) -O2 $(CUDA_ARCH) -Ireference_engine -Xcompiler -Wall,-Werror -c $< -o $@

# The commit the binary is built from (git describe: -dirty when the tree has
# uncommitted changes; unknown outside a git checkout), compiled into
# calibrate's stamp; the header is rewritten only when the commit changes.
# Every make runs git describe (FORCE), so a commit (HEAD moved) or an edit
# (the -dirty mark) remakes calibrate.o: a binary reads another commit only
# when it was not rebuilt after the commit (tester91 #7: built before the
# version commit); its profiles name the release beside it (RL_VERSION).
COMMIT := $(shell git describe --always --dirty --abbrev=8 2>/dev/null || echo unknown)
$(BUILD)/gen/commit.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define RL_COMMIT "$(COMMIT)"' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/obj/calib/calibrate.o: $(BUILD)/gen/commit.h
$(BUILD)/obj/calib/calibrate.o: CFLAGS += -I$(BUILD)/gen
FORCE: # no recipe, no file: whatever depends on it is remade every run

$(LIB): $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/obj/main.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(LIB) tests/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ENGINE_CFLAGS) -Itests -DRL_SRCDIR='"$(CURDIR)"' -DRL_BIN='"$(abspath $(BIN))"' \
	    $< $(LIB) $(LDFLAGS) $(LDLIBS) -lcmocka -o $@

# docs/cli.md: the command reference, generated from the parameter and
# command tables (src/param.c); tests/test_param.c fails when it is stale.
docs: $(BIN)
	$(BIN) help --markdown > docs/cli.md.tmp && mv docs/cli.md.tmp docs/cli.md

# Run every test binary; fail if any fails (the loop keeps going to report all).
# Where nvcc exists the CUDA backend is compiled too (it runs only on a GPU);
# the benchmarks are compiled, not run (make bench), so an API change that
# breaks one fails here (bench_fit did, stops 34-35).
#
# TESTS_BESIDE run beside the others, their output kept in a log printed
# after them: each writes only into its own mkdtemp folders, never ./out or
# a fixed path (checked by grep at stop 46); test_cli works in a mkdtemp
# folder of its own, so its `run`s without --out write their out/ there
# (stop 47).  They are most of the suite's CPU time (stop 47, 2-core VM:
# test_cli 205, test_size 156 of about 500 CPU-s), so on two cores the two
# of them and the rest share both cores instead of one test after another.
# BESIDE_RUNS names each such run, PATH@I/N for the tests whose index is I
# modulo N (RL_TEST_SHARD, tests/testutil.h): test_cli, the longest (ASan
# 683 of 1387 CPU-s, 2026-12-06), runs as two halves so that no one binary
# sets the floor of the wall time.
BESIDE_RUNS := $(BUILD)/tests/test_cli@0/2 $(BUILD)/tests/test_cli@1/2 $(BUILD)/tests/test_size@0/1
TESTS_BESIDE := $(sort $(foreach r,$(BESIDE_RUNS),$(firstword $(subst @, ,$(r)))))
# test-asan sets TEST_CUDA empty: nvcc gets neither $(OPT) nor $(SAN), so its
# objects would be make test's again (~10 CPU-s of nvcc on the 2-core VM).
TEST_CUDA ?= cuda-compile
test: $(BIN) $(TESTS) $(BENCHES) $(TEST_CUDA)
	@fail=0; for r in $(BESIDE_RUNS); do log=$${r%@*}.$$(echo $${r#*@} | tr / _); \
	    RL_TEST_SHARD=$${r#*@} $${r%@*} > $$log.log 2>&1 & echo $$! > $$log.pid; done; \
	for t in $(filter-out $(TESTS_BESIDE),$(TESTS)); do echo "== $$t"; $$t || fail=1; done; \
	for r in $(BESIDE_RUNS); do log=$${r%@*}.$$(echo $${r#*@} | tr / _); \
	    echo "== $${r%@*}, tests $${r#*@} (ran beside the others)"; \
	    wait $$(cat $$log.pid) || fail=1; cat $$log.log; rm -f $$log.pid $$log.log; done; \
	$(MAKE) --no-print-directory test-install || fail=1; \
	$(MAKE) --no-print-directory test-presets || fail=1; \
	if [ $$fail -ne 0 ]; then echo "make test: FAILED"; exit 1; fi; echo "make test: all passed"

# The same suite under AddressSanitizer + UBSan, in separate build folders.
# A bad-input case may run 3x its plain time under ASan on a loaded host
# (sweep_memory.lua: ~8 CPU-s, "hung" at 60 s wall at load 8): 180 s a case.
# -O2 as the plain build (an ASan size search: 7.9 CPU-s at -O1, 6.7 at -O2,
# 2026-12-06); -O1's warnings are test-opt-levels' and the fuzz build's.
# RL_SAN_SMALL: the heaviest size searches on 300 requests (testutil.h; ASan
# test_size 464 CPU-s at full size, 2026-12-06, 2-core VM).
test-asan:
	RL_SAN_SMALL=1 RL_CASE_TIMEOUT=180 $(MAKE) test BUILD=build-asan BIN=build-asan/roofline OPT='-O2 -g -fno-omit-frame-pointer' \
	    SAN='-fsanitize=address,undefined -fno-sanitize-recover=all' TEST_CUDA=

# Every library, engine and calibration source compiled (not linked) at the
# other optimisation levels the warnings depend on: -O1 (the fuzz build's), -O3 and
# -Os.  gcc's -Wmaybe-uninitialized and -Wformat-truncation see different code
# at each level, and -Werror makes any of them fatal (CI broke on -O1 ones).
OPT_LEVELS ?= -O1 -O3 -Os
test-opt-levels:
	@for o in $(OPT_LEVELS); do for f in $(LIB_SRC) $(ENGINE_SRC); do \
	  $(CC) -std=c11 -D_DEFAULT_SOURCE $$o -Wall -Wextra -Werror -Isrc -Ireference_engine -Icalib \
	      -I$(BUILD)/gen $(PKG_CFLAGS) $(ENGINE_CFLAGS) -c $$f -o /dev/null || { echo "test-opt-levels: $$f at $$o"; exit 1; }; \
	done; done; echo "test-opt-levels: $(words $(LIB_SRC) $(ENGINE_SRC)) files clean at $(OPT_LEVELS)"

# The CLI end-to-end tests (every bad-input case through bin/roofline) under
# valgrind: memory errors and definite leaks make the binary exit 99, which no
# case expects.  (Not under ASan: the plain build.)  The cases run RL_JOBS at
# a time (default: the online CPUs); RL_CASES=FIRST-LAST runs a subset
# (tests/test_bad_inputs.c).  Valgrind's own start-up is most of a case's
# cost (valgrind -q /bin/true: ~0.67 CPU-s on the 2-core VM), and reading
# the binary's inlined-call records is a measurable part of it:
# --read-inline-info=no took info --model llama3-8b from 1.29-1.36 to
# 1.14-1.18 CPU-s a run (stop 48, 3 runs each), ~560 cases.  A report then
# lists no inlined frames (it names the function they were inlined into);
# errors and definite leaks are found and exit 99 the same.
VALGRIND ?= valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
            --show-leak-kinds=definite --read-inline-info=no
#
# RL_CASE_EVERY=2: each section's first case of cases.txt and every second
# after it (tests/test_bad_inputs.c case_every): every class of bad input
# (a section) still runs under valgrind, half the cases; make test-asan runs
# all of them under ASan + UBSan + LeakSanitizer.  Valgrind's own start-up
# (~1.1 CPU-s a case: info --model llama3-8b, 2-core VM) is most of the
# step: 580 cases took 477 s wall (stop 49's CI run).  VALGRIND_EVERY=1 runs
# all of them.
VALGRIND_EVERY ?= 2
test-valgrind: $(BIN) $(BUILD)/tests/test_bad_inputs
	RL_WRAP="$(VALGRIND)" RL_CASE_TIMEOUT=300 RL_CASE_EVERY=$(VALGRIND_EVERY) $(BUILD)/tests/test_bad_inputs

# libFuzzer harnesses (fuzz/fuzz_*.c), built with clang against the library
# under ASan+UBSan in build-fuzz/, each run FUZZ_SECONDS from its seeds
# (fuzz/seeds/NAME plus the spec, config.json and bad-input files).  New
# corpus entries go to build-fuzz/corpus/NAME, crashes to build-fuzz/crashes/.
FUZZ_CC      ?= $(shell command -v clang-14 || command -v clang)
FUZZ_SECONDS ?= 20
# Seconds one input may run before libFuzzer calls it a hang.  A seed sets
# the floor: tests/bad_inputs/scenario/sweep_memory.lua sweeps 458752
# calibrated points until the memory budget stops it, 1.8 s in the normal
# build but about 37 CPU-s under ASan+UBSan with coverage (2-core VM,
# 2026-12-02), past the 20 s this was before.
FUZZ_TIMEOUT ?= 90
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SRC     := $(wildcard fuzz/fuzz_*.c)
FUZZ_BIN     := $(FUZZ_SRC:fuzz/%.c=build-fuzz/%)
fuzz_seeds_fuzz_spec      := model hw_profiles tests/bad_inputs/model tests/bad_inputs/hw
fuzz_seeds_fuzz_import_hf := tests/data/hf tests/bad_inputs/hf
fuzz_seeds_fuzz_cli       := fuzz/seeds/cli
fuzz_seeds_fuzz_scenario  := scenarios tests/bad_inputs/scenario
fuzz_seeds_fuzz_trace     := fuzz/seeds/trace tests/bad_inputs/trace
fuzz_seeds_fuzz_safetensors := fuzz/seeds/safetensors tests/bad_inputs/safetensors
fuzz_seeds_fuzz_measure   := tests/data/e2e tests/bad_inputs/e2e
# Harnesses for modules still on their way are skipped until their header lands.
fuzz_needs_fuzz_trace       := src/workload.h
fuzz_needs_fuzz_safetensors := reference_engine/weights.h
FUZZ_RUN := $(foreach f,$(FUZZ_SRC),$(if $(fuzz_needs_$(basename $(notdir $(f)))),$(if $(wildcard $(fuzz_needs_$(basename $(notdir $(f))))),$(f)),$(f)))
FUZZ_SKIP := $(filter-out $(FUZZ_RUN),$(FUZZ_SRC))

fuzz:
	@if [ -z "$(FUZZ_CC)" ]; then echo "make fuzz: clang not found (skipped)"; exit 1; fi
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) OPT='-O1 -g -fno-omit-frame-pointer' \
	    SAN='-fsanitize=fuzzer-no-link $(FUZZ_SAN)' build-fuzz/libroofline.a
	@$(foreach f,$(FUZZ_SKIP),echo "make fuzz: $(f) skipped ($(fuzz_needs_$(basename $(notdir $(f)))) not in this tree)";) true
	@for f in $(FUZZ_RUN); do n=$$(basename $$f .c); \
	  $(FUZZ_CC) -std=c11 -D_DEFAULT_SOURCE -O1 -g -Isrc -Ireference_engine -Icalib $(PKG_CFLAGS) \
	    -DRL_SRCDIR='"$(CURDIR)"' -fsanitize=fuzzer $(FUZZ_SAN) $$f build-fuzz/libroofline.a \
	    $(LDLIBS) -o build-fuzz/$$n || exit 1; done
	@fail=0; $(MAKE) --no-print-directory -k $(patsubst fuzz/%.c,fuzz-run-%,$(FUZZ_RUN)) || fail=1; summary=""; \
	for f in $(FUZZ_RUN); do n=$$(basename $$f .c); \
	  line=$$(grep -E '^Done [0-9]+ runs' build-fuzz/$$n.log || echo "FAILED, see build-fuzz/$$n.log"); \
	  cov=$$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' build-fuzz/$$n.log | tail -1); \
	  summary="$$summary$$n: $$line ($$cov)\n"; done; \
	printf "$$summary"; if [ $$fail -ne 0 ]; then echo "make fuzz: a harness failed"; exit 1; fi
# One harness's run from its seeds, into build-fuzz/NAME.log.  `make -jN
# fuzz` runs N harnesses at once, each on a core of its own for its
# FUZZ_SECONDS: CI's `make -j2 fuzz` takes about 7 x FUZZ_SECONDS / 2 s of
# fuzzing, not 7 x FUZZ_SECONDS (one after another before stop 47).
fuzz-run-%:
	@mkdir -p build-fuzz/corpus/$* build-fuzz/crashes; echo "== $*: $(FUZZ_SECONDS) s"; \
	build-fuzz/$* -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -close_fd_mask=2 \
	    -artifact_prefix=build-fuzz/crashes/$*- build-fuzz/corpus/$* $(fuzz_seeds_$*) \
	    > build-fuzz/$*.log 2>&1

# Sweep rate on one core (reported, never asserted; target >= 1e7 evals/s).
$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DRL_COMMIT='"$(COMMIT)"' -DRL_BIN='"$(abspath $(BIN))"' $< $(LIB) $(LDFLAGS) $(LDLIBS) -o $@
bench: $(BIN) $(BENCHES)
	@for b in $(BENCHES); do ROOFLINE_DATA=$(CURDIR) $$b || exit 1; done

# Accuracy reports against measured data in ../shared/data (printed, never
# asserted).  Each part is its own target; `accuracy` runs them all.  The data
# lie outside the repository; from elsewhere (a git worktree, whose ../shared
# is not the checkout's) name them: SPLITWISE=FILE (SplitwiseSim's
# perf_model.csv) and SILICON=DIR (AIConfigurator's systems/data).  Without
# them a part says so on stderr, "WARNING: ... nothing measured", and exits
# 0: these targets report, they never assert, `accuracy` goes on to the
# parts that need no data (accuracy-derived), and CI runs none of them
# (.ci/run), so a missing data set is no failure of the code.
SPLITWISE ?= ../shared/data/e2e/splitwise_perf_model.csv
SILICON ?= ../shared/data/silicon
.PHONY: accuracy accuracy-e2e accuracy-kernels accuracy-derived accuracy-collectives
accuracy: accuracy-e2e accuracy-kernels accuracy-derived accuracy-collectives
# The engine-cost fit on SplitwiseSim's end-to-end rows (calib/accuracy_e2e.sh).
accuracy-e2e: $(BIN)
	calib/accuracy_e2e.sh $(BIN) $(SPLITWISE)

# The figures of README.md and docs/model.md, into out/figures (needs gnuplot; data + .gp are kept either way).
FIG := out/figures
figures: $(BIN)
	@mkdir -p $(FIG)
	@command -v gnuplot >/dev/null || echo "figures: gnuplot not found; writing data and .gp scripts only"
	$(BIN) pareto --model llama3-70b --hw tpu-v5e --chips 4,8,16,32 --weights bf16,int8 \
	    --kv bf16,int8 --plot $(FIG)/frontier.png --save $(FIG)/frontier.txt
	$(BIN) run --out $(FIG) scenarios/figures.lua

# The main job on a built-in example: the Scaling Book's LLaMA-2-13B tables.
demo: $(BIN)
	$(BIN) run scenarios/scaling_book_llama2_13b.lua

# CUDA backend: compile it for sm_80 and sm_90 where nvcc exists; `make cuda`
# also links bin/roofline-cuda, the CUDA tests (they skip without a GPU) and
# bin/gemm-sweep (calib/gemm_sweep.cu: cuBLASLt GEMMs timed into a kernel table).
cuda-compile:
	@if [ -n "$(NVCC)" ]; then $(MAKE) --no-print-directory $(BUILD)/obj/reference_engine/cuda/cuda_backend.o $(BUILD)/gemm-sweep; \
	else echo "cuda: nvcc not found (PATH, /usr/local/cuda/bin): CUDA backend not built"; fi
cuda:
	@if [ -z "$(NVCC)" ]; then echo "cuda: nvcc not found (PATH, /usr/local/cuda/bin): skipped"; \
	else $(MAKE) --no-print-directory CUDA=1 BUILD=build-cuda BIN=bin/roofline-cuda \
	    bin/roofline-cuda build-cuda/tests/test_cuda build-cuda/gemm-sweep && \
	    cp build-cuda/gemm-sweep bin/gemm-sweep; fi
$(BUILD)/gemm-sweep: calib/gemm_sweep.cu
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=sm_100 \
	    -Xcompiler -Wall,-Wextra,-Werror $< -lcublasLt -o $@

# Calibrate this host's CPU through the reference engine's kernels (<= 60 s).
calib: $(BIN)
	$(BIN) calibrate --backend cpu

# Calibrated profiles from the measured kernel tables (NVIDIA AIConfigurator data,
# Apache-2.0) in $(SILICON): hw_profiles/engines/<hw>-<engine>.lua, which the
# presets' `engines` name.  PRESET:GPU-directory pairs, A100 first: the Hopper
# TensorRT-LLM profiles borrow its MoE-from-GEMM correction (silicon.c
# borrow_moe_gemm reads the donors as they sit in the folder), so one pass settles.
SILICON_HW := a100-sxm-80g:a100_sxm h100-sxm:h100_sxm h200:h200_sxm b200:b200_sxm gb200:gb200
SILICON_ENGINES := trtllm vllm
# The MoE tables kept in the shipped profiles: those of the MoE presets'
# shapes (every measured shape would take b200-vllm to 1.3 MB).
SILICON_MOE := deepseek-v3,gpt-oss-120b,mixtral-8x7b,mixtral-8x22b
# Written in a temporary folder and moved over each preset: calibrate
# refuses a --save that names a shipped preset, and an interrupted run
# leaves no stray file in hw_profiles/engines (as calib/fit_splitwise.sh).
profiles: $(BIN)
	@mkdir -p hw_profiles/engines
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	for p in $(SILICON_HW); do for e in $(SILICON_ENGINES); do \
	    out=hw_profiles/engines/$${p%%:*}-$$e.lua; \
	    ROOFLINE_DATA=$(CURDIR) $(BIN) calibrate --tables $(SILICON)/$${p##*:} --hw $${p%%:*} \
	        --engine $$e --moe-models $(SILICON_MOE) --save "$$tmp/$${p%%:*}-$$e.lua" --format csv >/dev/null && \
	    mv "$$tmp/$${p%%:*}-$$e.lua" $$out || exit 1; \
	    echo "profiles: $$out ($$(wc -c < $$out) bytes)"; done; done

# Per-operator accuracy of the kernel-table fit on held-back configurations
# (every 5th), for each shipped GPU and engine; figures in out/accuracy.
accuracy-kernels: $(BIN)
	@mkdir -p out/accuracy
	@[ -d $(SILICON) ] || { echo "accuracy-kernels: WARNING: data not found at $(SILICON): nothing" \
	    "measured (NVIDIA AIConfigurator's systems/data, ../shared/data/README.md; name" \
	    "it: make accuracy-kernels SILICON=DIR); exit 0, a report, not a check" >&2; exit 0; }; \
	for p in $(SILICON_HW); do for e in $(SILICON_ENGINES); do \
	    echo "== $${p%%:*} $$e: roofline validate --tables $(SILICON)/$${p##*:} --hw $${p%%:*} --engine $$e --holdout 5 --moe-models $(SILICON_MOE)"; \
	    out=$$(ROOFLINE_DATA=$(CURDIR) $(BIN) validate --tables $(SILICON)/$${p##*:} \
	        --hw $${p%%:*} --engine $$e --holdout 5 --moe-models $(SILICON_MOE) \
	        --plot out/accuracy/$${p%%:*}-$$e.png) || exit 1; \
	    printf '%s\n' "$$out" | sed -n '/^operators/,$$p'; done; done
# Derived times (engines.h DERIVED) against the GEMM tables they stand in
# for: each non-bf16 table of the shipped profiles hidden in turn
# (tools/derivedcheck.c); reads only hw_profiles.
$(BUILD)/roofline-derivedcheck: tools/derivedcheck.c $(LIB)
	$(CC) $(CFLAGS) $< $(LIB) $(LDFLAGS) $(LDLIBS) -o $@
accuracy-derived: $(BUILD)/roofline-derivedcheck
	@for p in a100-sxm-80g h100-sxm h200 b200 gb200; do for e in trtllm vllm; do \
	    ROOFLINE_DATA=$(CURDIR) $(BUILD)/roofline-derivedcheck $$p $$e || exit 1; done; done
# The data behind the bands of operators no table of their own dtype
# measured (ops.c ROOFLINE_BAND, DERIVED_BAND): every kernel-table node of
# the shipped GPU profiles against its roofline and against its time derived
# from another dtype's table (tools/bandcheck.c); reads only hw_profiles.
$(BUILD)/roofline-bandcheck: tools/bandcheck.c $(LIB)
	$(CC) $(CFLAGS) $< $(LIB) $(LDFLAGS) $(LDLIBS) -o $@
accuracy-bands: $(BUILD)/roofline-bandcheck
	@ROOFLINE_DATA=$(CURDIR) $(BUILD)/roofline-bandcheck $(foreach p,a100-sxm-80g h100-sxm h200 b200 gb200,$(p):trtllm $(p):vllm)
# The hardware profiles' `collectives` tables, refitted from NVIDIA
# AIConfigurator's measurements in ../shared/data/silicon (collfit.h; SILICON=DIR
# above): out/collectives/<gpu>.lua holds the Lua to paste into the profile; the fit
# error per implementation is printed.
$(BUILD)/roofline-collfit: tools/collfit.c $(LIB)
	$(CC) $(CFLAGS) $< $(LIB) $(LDFLAGS) $(LDLIBS) -o $@
collectives: $(BUILD)/roofline-collfit
	@mkdir -p out/collectives
	@for d in $(SILICON)/*/; do g=$$(basename $$d); \
	  $(BUILD)/roofline-collfit $$d > out/collectives/$$g.lua || exit 1; done
# The collectives' accuracy (issue 12: AllReduce within p90 15%): `make
# collectives`' error lines per GPU and implementation (NCCL, TensorRT-LLM's
# and vLLM's own AllReduce); "each held out" is the profiles' lookup, each
# measured size interpolated from the others (out/collectives is rewritten).
accuracy-collectives: $(BUILD)/roofline-collfit
	@[ -d $(SILICON) ] || { echo "accuracy-collectives: WARNING: data not found at $(SILICON): nothing" \
	    "measured (NVIDIA AIConfigurator's systems/data, ../shared/data/README.md; name" \
	    "it: make accuracy-collectives SILICON=DIR); exit 0, a report, not a check" >&2; exit 0; }; \
	echo "== collectives (AllReduce per GPU and implementation): make collectives"; \
	$(MAKE) --no-print-directory collectives 2>&1

# Debian packages the project needs, build tools included (scripts/deps.sh
# lists them; run as root or with sudo; CI calls this).
deps:
	sh scripts/deps.sh

PREFIX ?= /usr/local
install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/roofline/model \
	    $(DESTDIR)$(PREFIX)/share/roofline/hw_profiles
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/roofline
	install -m 644 model/*.lua $(DESTDIR)$(PREFIX)/share/roofline/model
	install -m 644 hw_profiles/*.lua $(DESTDIR)$(PREFIX)/share/roofline/hw_profiles
	install -d $(DESTDIR)$(PREFIX)/share/roofline/hw_profiles/engines
	install -m 644 hw_profiles/engines/*.lua $(DESTDIR)$(PREFIX)/share/roofline/hw_profiles/engines
	install -m 644 PRESETS $(DESTDIR)$(PREFIX)/share/roofline
	install -d $(DESTDIR)$(PREFIX)/share/roofline/plots
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/roofline/plots
	install -d $(DESTDIR)$(PREFIX)/share/roofline/scenarios
	install -m 644 scenarios/*.lua $(DESTDIR)$(PREFIX)/share/roofline/scenarios

# Install into a scratch prefix and run a calibrated GPU preset (its kernel
# tables live in hw_profiles/engines/) and a TPU preset from there, outside the
# source tree and without ROOFLINE_DATA: an install that leaves out a data
# folder fails here (tester4 #1); and the README tour's scenario from the
# installed share/roofline/scenarios/ (fixVE #6: install copied none, though
# PRESETS lists them).  `make test` runs it.
INSTALL_CHECK := $(BUILD)/install-check
test-install: $(BIN)
	@rm -rf $(INSTALL_CHECK)
	@$(MAKE) --no-print-directory install BIN=$(BIN) PREFIX=$(abspath $(INSTALL_CHECK)) DESTDIR= >/dev/null
	@cd / && for hw in h100-sxm tpu-v5e; do \
	  env -u ROOFLINE_DATA $(abspath $(INSTALL_CHECK))/bin/roofline step --model llama3-8b \
	      --hw $$hw --batch 1 --context 100 >/dev/null || { echo "test-install: $$hw failed"; exit 1; }; \
	done; echo "test-install: h100-sxm and tpu-v5e run from an install prefix"
	@cd / && env -u ROOFLINE_DATA $(abspath $(INSTALL_CHECK))/bin/roofline run --out \
	    $(abspath $(INSTALL_CHECK))/results \
	    $(abspath $(INSTALL_CHECK))/share/roofline/scenarios/kv_int8.lua >/dev/null \
	    2>$(abspath $(INSTALL_CHECK))/run.err || { cat $(abspath $(INSTALL_CHECK))/run.err; \
	  echo "test-install: scenarios/kv_int8.lua failed from the install prefix"; exit 1; }; \
	  echo "test-install: scenarios/kv_int8.lua runs from share/roofline/scenarios"
	@rm -rf $(INSTALL_CHECK)

# PRESETS: the shipped data files, which no output of roofline may replace
# (guard.h; PRESETS itself and the binary are refused too): the spec files
# git tracks in model/, hw_profiles/ and hw_profiles/engines/, the gnuplot
# templates plots/*.gp and the scenarios/*.lua.  `make presets` rewrites it
# after one is added or removed; `make test` checks it in a git checkout.
PRESET_FILES = git ls-files model hw_profiles plots scenarios | \
    grep -E '^((model|hw_profiles|hw_profiles/engines|scenarios)/[^/]+\.lua|plots/[^/]+\.gp)$$'
presets:
	@$(PRESET_FILES) > PRESETS && echo "presets: $$(wc -l < PRESETS) files in PRESETS"
test-presets:
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
	  $(PRESET_FILES) | diff -u PRESETS - || { echo "test-presets: PRESETS is stale: make presets"; exit 1; }; \
	  echo "test-presets: PRESETS lists the $$(wc -l < PRESETS) tracked presets"; fi

help:
	@echo "make            build bin/roofline"
	@echo "make test       build and run the cmocka suite (exit non-zero on failure)"
	@echo "make test-asan  the suite under AddressSanitizer + UBSan"
	@echo "make test-opt-levels  every source compiled at -O1, -O3 and -Os with -Werror (warnings that -O2 hides)"
	@echo "make test-valgrind  the CLI end-to-end tests (bad-input corpus) under valgrind"
	@echo "make fuzz       libFuzzer harnesses, FUZZ_SECONDS (20) each"
	@echo "make docs       regenerate docs/cli.md from the parameter tables"
	@echo "make demo       the Scaling Book's LLaMA-2-13B tables on 8 TPU v5e"
	@echo "make bench      sweep evaluations/s, serving-simulator requests/s, fit time on 1,000 rows, size CPU s"
	@echo "make accuracy   predicted vs held-back measured data (../shared/data; SPLITWISE=FILE SILICON=DIR elsewhere): the four parts below"
	@echo "make accuracy-e2e  the engine-cost fit on SplitwiseSim's end-to-end rows"
	@echo "make accuracy-kernels  the kernel-table lookup on held-back configurations, per GPU and engine"
	@echo "make accuracy-derived  derived kernel times against the tables they stand in for"
	@echo "make accuracy-collectives  the AllReduce tables, each measured size held out, per GPU and implementation"
	@echo "make figures    frontier, step breakdown, roofline and memory figures in out/figures"
	@echo "make deps       install the Debian packages (root)"
	@echo "make calib      calibrate this host (hw_profiles/calibrated/<host>.lua)"
	@echo "make collectives  refit the profiles' collectives tables (out/collectives/<gpu>.lua)"
	@echo "make cuda       build the CUDA backend, bin/roofline-cuda and its tests (needs nvcc)"
	@echo "make cuda-compile  compile the CUDA backend only, where nvcc exists (part of make test)"
	@echo "make profiles   regenerate hw_profiles/engines/*.lua from the measured kernel tables (../shared/data)"
	@echo "make presets    rewrite PRESETS, the list of shipped presets, from git"
	@echo "make test-presets  check that PRESETS lists the tracked presets (part of make test)"
	@echo "make install    install to PREFIX (default /usr/local)"
	@echo "make test-install  install to a scratch prefix and run a GPU and a TPU preset from it (part of make test)"
	@echo "make clean      remove build outputs"
	@echo "make help       this list (test_param checks that it names every .PHONY target)"

clean:
	rm -rf build build-asan build-cuda build-fuzz bin

-include $(filter %.d,$(LIB_OBJ:.o=.d)) $(BUILD)/obj/main.d $(TESTS:=.d) $(BENCHES:=.d)
