# roofline — GNU make entry point.  `make help` lists the targets.

CC      ?= cc
PKGS    := lua5.4 libcjson
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
OPT     ?= -O2 -g
CFLAGS  += -std=c11 -D_DEFAULT_SOURCE $(OPT) -Wall -Wextra -Werror -MMD -MP -Isrc $(PKG_CFLAGS) $(SAN)
LDFLAGS += $(SAN)
LDLIBS  += $(PKG_LIBS) -lm

# BUILD holds objects, the library and test binaries; BIN is the CLI.
BUILD   ?= build
BIN     ?= bin/roofline

LIB_SRC := $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
LIB     := $(BUILD)/libroofline.a
TEST_SRC := $(wildcard tests/test_*.c)
TESTS   := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

.PHONY: all test test-asan demo deps help clean install bench
all: $(BIN)

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/obj/main.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(LIB) tests/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests -DRL_SRCDIR='"$(CURDIR)"' -DRL_BIN='"$(abspath $(BIN))"' \
	    $< $(LIB) $(LDFLAGS) $(LDLIBS) -lcmocka -o $@

# Run every test binary; fail if any fails (the loop keeps going to report all).
test: $(BIN) $(TESTS)
	@fail=0; for t in $(TESTS); do echo "== $$t"; $$t || fail=1; done; \
	if [ $$fail -ne 0 ]; then echo "make test: FAILED"; exit 1; fi; echo "make test: all passed"

# The same suite under AddressSanitizer + UBSan, in separate build folders.
test-asan:
	$(MAKE) test BUILD=build-asan BIN=build-asan/roofline OPT='-O1 -g -fno-omit-frame-pointer' \
	    SAN='-fsanitize=address,undefined -fno-sanitize-recover=all'

# The main job on a built-in example: the Scaling Book's LLaMA-2-13B tables.
demo: $(BIN)
	$(BIN) run scenarios/scaling_book_llama2_13b.lua

# Speed figures (never timed tests): simulated requests/s of the serving simulator.
$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< $(LIB) $(LDFLAGS) $(LDLIBS) -o $@

bench: $(BUILD)/bench/bench_serve
	ROOFLINE_DATA=$(CURDIR) $(BUILD)/bench/bench_serve

# Debian packages the project needs (run as root; CI calls this).
DEPS := liblua5.4-dev libcmocka-dev libcjson-dev gnuplot-nox libopenblas-dev pkg-config
deps:
	@missing=""; for p in $(DEPS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "deps: all present"; fi

PREFIX ?= /usr/local
install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/roofline/model \
	    $(DESTDIR)$(PREFIX)/share/roofline/hw_profiles
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/roofline
	install -m 644 model/*.lua $(DESTDIR)$(PREFIX)/share/roofline/model
	install -m 644 hw_profiles/*.lua $(DESTDIR)$(PREFIX)/share/roofline/hw_profiles

help:
	@echo "make            build bin/roofline"
	@echo "make test       build and run the cmocka suite (exit non-zero on failure)"
	@echo "make test-asan  the suite under AddressSanitizer + UBSan"
	@echo "make demo       the Scaling Book's LLaMA-2-13B tables on 8 TPU v5e"
	@echo "make bench      speed figures: simulated requests/s of the serving simulator"
	@echo "make deps       install the Debian packages (root)"
	@echo "make install    install to PREFIX (default /usr/local)"
	@echo "make clean      remove build outputs"

clean:
	rm -rf build build-asan bin

-include $(LIB_OBJ:.o=.d) $(BUILD)/obj/main.d $(TESTS:=.d)
