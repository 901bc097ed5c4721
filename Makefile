# sashite: build, test and demo. See README.md.
#   make            build build/sashite and the test binary (optimised)
#   make test       install what is missing, build, run every test (sanitizers included)
#   make demo       install what is missing, build, show the system at work
#   make deps       install the Debian packages the build and tests need (as root)
#   make install    build, then install into PREFIX (/usr/local): bin/sashite, share/sashite/
# Knobs: DEBUG=1 (-g, assertions, lighter optimisation), SANITIZE=address,undefined,
#        OPT_<dir>=-O2 (one directory's optimisation, below), NATIVE=1 (-march=native),
#        DEBUG_INFO=-g1 (with DEBUG=1: line tables only, what sanitizer reports need;
#        `make test` uses it: its sanitizer build takes three quarters of the time of -g's),
#        POPCNT=0 (no -mpopcnt, for a CPU without it; the default follows /proc/cpuinfo),
#        UNITY=0 (compile the tests', tools' and app files one by one; below),
#        TEST_UNITS=6, TOOLS_UNITS=3, APP_UNITS=1 (the number of groups of each).

CXX      ?= g++
BUILD    ?= build
# make install: the binary in $(PREFIX)/bin, the weights, the book and the configs in
# $(SHARE_DIR), where the binary looks for them wherever it is copied; DESTDIR for packaging.
PREFIX   ?= /usr/local
SHARE_DIR := $(PREFIX)/share/sashite
JOBS     ?= $(shell nproc)
CXXFLAGS := -std=c++20 -Wall -Wextra -pthread -I. -MMD -MP
LDLIBS   := -lleveldb -llinear -lspdlog -lfmt -pthread
TEST_LDLIBS := $(LDLIBS) -losl

DEBUG_INFO ?= -g
ifeq ($(DEBUG),1)
  CXXFLAGS += $(DEBUG_INFO) -D_GLIBCXX_ASSERTIONS
else
  CXXFLAGS += -DNDEBUG
endif
# Optimisation by top directory, OPT_<dir> (compiling is most of `make test`'s time).
# Release: the rules, the engine, the book and the tools at -O3; the base (files, text,
# processes), the CSA client and the USI process layer (usi/: network- and pipe-bound) and the
# command-line front ends (app/: CLI11 code, run once a command) at -O1, the tests' own code at -O0: half the compiling, the same binary speed.
# DEBUG=1 (the sanitizer build): the rules, the engine and the book, whose searches and scans
# the tests run, at -O1; the base, usi/, the client and tools at -Og, the tests' code at -O0. Under the sanitizers these
# compile 1.5 to 3 times faster than -O1; each level was chosen by the suites' running times.
ifeq ($(DEBUG),1)
  OPT_shogi  ?= -O1
  OPT_engine ?= -O1
  OPT_book   ?= -O1
  OPT_base   ?= -Og
  OPT_usi    ?= -Og
  OPT_council ?= -Og
  OPT_client ?= -Og
  OPT_tools  ?= -Og
  OPT_app    ?= -O0
  OPT_tests  ?= -O0
else
  OPT_shogi  ?= -O3
  OPT_engine ?= -O3
  OPT_book   ?= -O3
  OPT_base   ?= -O1
  OPT_usi    ?= -O1
  OPT_council ?= -O1
  OPT_client ?= -O1
  OPT_tools  ?= -O3
  OPT_app    ?= -O1
  OPT_tests  ?= -O0
endif
opt_for = $(OPT_$(firstword $(subst /, ,$1)))
ifneq ($(SANITIZE),)
  CXXFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDFLAGS  += -fsanitize=$(SANITIZE)
endif
ifeq ($(NATIVE),1)
  CXXFLAGS += -march=native
endif
# The hardware population count (every x86-64 CPU since 2008) where the building machine has
# it: the evaluation counts bits at every node, and the library call instead costs about 3%
# of the search's speed. POPCNT=0 leaves it out (a binary for an older machine).
POPCNT ?= $(shell grep -qw popcnt /proc/cpuinfo 2>/dev/null && echo 1)
ifeq ($(POPCNT),1)
  CXXFLAGS += -mpopcnt
endif
CXXFLAGS += -DSASHITE_TEST_DATA_DIR='"$(CURDIR)/tests/data"'

TOOLS_SRC := $(filter-out tools/osl/%,$(wildcard tools/*/*.cpp))
LIB_SRC  := $(wildcard base/*.cpp shogi/*.cpp engine/*.cpp engine/*/*.cpp usi/*.cpp council/*.cpp \
              client/*.cpp book/*.cpp) \
            $(TOOLS_SRC)
APP_SRC  := $(wildcard app/*.cpp)
TEST_SRC := $(wildcard tests/*.cpp)
# TEST_FILES='tests/a_test.cpp ...': a test binary of these files only (and the doctest
# runner); the TSan build (tsan-tests-bin) compiles only the files its cases live in.
ifneq ($(TEST_FILES),)
  TEST_SRC := $(sort tests/main.cpp $(TEST_FILES))
endif
# Unity groups: the test files, the tools' files and the command-line files compile in groups,
# each group a source in $(BUILD)/unity/ that #includes its files, so that the headers they
# share (doctest, CLI11, Boost.Asio, the library's own) are parsed once a group rather than
# once a file, which cuts their compile time by a third or more (timings: docs/building.md).
# Inside a group the files share one
# translation unit: a name in one file's anonymous namespace is seen by the others, so two
# files must not define the same one (the compiler rejects a second definition, but not an
# overload that another file's call might pick), and each test file keeps its code in a
# namespace named after it. UNITY=0 compiles every file alone (quicker when working
# on one file; it also checks that each file includes what it uses). The engine, the book and
# the client compile file by file (the engine's code generation must not depend on its
# neighbours). Alone always: the doctest runner, and the two test files that compile
# OpenShogiLib's headers (with their own macros and levels).
UNITY       ?= 1
TEST_UNITS  ?= 6
TOOLS_UNITS ?= 3
APP_UNITS   ?= 1
TEST_ALONE  := $(filter $(TEST_SRC),tests/main.cpp tests/osl_oracle_test.cpp \
                 tests/mate_osl_bench_test.cpp tests/osl_label_test.cpp)
ifeq ($(UNITY),1)
  unity_sources = $(foreach k,$(shell seq $2),$(BUILD)/unity/$1_$(k).cpp)
  unity_objects = $(foreach k,$(shell seq $2),$(BUILD)/obj/unity/$1_$(k).o)
  TEST_GROUPED := $(filter-out $(TEST_ALONE),$(TEST_SRC))
  TEST_OBJ := $(TEST_ALONE:%.cpp=$(BUILD)/obj/%.o) $(call unity_objects,tests,$(TEST_UNITS))
  LIB_OBJ  := $(patsubst %.cpp,$(BUILD)/obj/%.o,$(filter-out $(TOOLS_SRC),$(LIB_SRC))) \
              $(call unity_objects,tools,$(TOOLS_UNITS))
  APP_OBJ  := $(call unity_objects,app,$(APP_UNITS))
else
  TEST_OBJ := $(TEST_SRC:%.cpp=$(BUILD)/obj/%.o)
  LIB_OBJ  := $(LIB_SRC:%.cpp=$(BUILD)/obj/%.o)
  APP_OBJ  := $(APP_SRC:%.cpp=$(BUILD)/obj/%.o)
endif
# GPS Shogi's evaluation as a reference (OpenShogiLib): in the tests and a developer binary of
# its own, build/osl_agreement, so that the engine does not link libosl.
# build/osl_label labels training data with the same evaluation (the NNUE loop's teacher).
OSL_OBJ  := $(BUILD)/obj/tools/osl/reference_agreement.o $(BUILD)/obj/tools/osl/teacher_label.o
OSL_MAIN_OBJ := $(BUILD)/obj/tools/osl/osl_agreement_main.o
OSL_LABEL_MAIN_OBJ := $(BUILD)/obj/tools/osl/osl_label_main.o
# The test files that use OpenShogiLib (its headers or tools/osl/): the test binary compiles
# the tools/osl objects and links libosl only when it holds one of them.
OSL_TEST_SRC := $(shell grep -l -e '^[#]include <osl/' -e '^[#]include "tools/osl/' $(TEST_SRC))
TEST_OSL_OBJ := $(if $(OSL_TEST_SRC),$(OSL_OBJ))

.PHONY: FORCE install all bin tests-bin osl-bin deps deps-if-missing test test-build sanitize-tests-bin test-fast test-slow demo bench format format-check include-check tsan-tests-bin test-threads check-house clean fuzz

all: bin tests-bin osl-bin
bin: $(BUILD)/sashite $(BUILD)/book/default.stamp
tests-bin: $(BUILD)/sashite_tests
osl-bin: $(BUILD)/osl_agreement $(BUILD)/osl_label

# One static library per layer (scripts/check-layers.sh says which may use which), linked
# highest first, so that a lower layer's use of a higher one fails the link as a forbidden
# include fails the check, which runs before any library is archived.
LAYERS     := tools client council usi book engine shogi base
layer_objs  = $(filter $(BUILD)/obj/$1/% $(BUILD)/obj/unity/$1_%,$(LIB_OBJ))
LAYER_LIBS := $(LAYERS:%=$(BUILD)/lib/lib%.a)
define layer_library
$$(BUILD)/lib/lib$1.a: $$(call layer_objs,$1) | $$(BUILD)/layers.ok
	@mkdir -p $$(@D)
	rm -f $$@
	ar rcs $$@ $$^
endef
$(foreach layer,$(LAYERS),$(eval $(call layer_library,$(layer))))
$(BUILD)/layers.ok: scripts/check-layers.sh $(wildcard $(LAYERS:%=%/*.h) $(LAYERS:%=%/*.cpp) \
                    $(LAYERS:%=%/*/*.h) $(LAYERS:%=%/*/*.cpp))
	@mkdir -p $(@D)
	scripts/check-layers.sh
	@touch $@

$(BUILD)/sashite: $(APP_OBJ) $(LAYER_LIBS)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/sashite_tests: $(TEST_OBJ) $(TEST_OSL_OBJ) $(LAYER_LIBS)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $^ $(if $(TEST_OSL_OBJ),$(TEST_LDLIBS),$(LDLIBS))

$(BUILD)/osl_agreement: $(OSL_MAIN_OBJ) $(OSL_OBJ) $(LAYER_LIBS)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

$(BUILD)/osl_label: $(OSL_LABEL_MAIN_OBJ) $(OSL_OBJ) $(LAYER_LIBS)
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)
# OpenShogiLib's search headers load a NodeType they never set (searchState2.h), which
# UBSan's enum check reports; the code is the library's, compiled into this object only.
$(OSL_OBJ): CXXFLAGS += -fno-sanitize=enum
# The two OSL binaries' main files are command-line front ends (CLI11 code, run once a
# command): compiled as app/ is; the work is in $(OSL_OBJ).
$(OSL_MAIN_OBJ) $(OSL_LABEL_MAIN_OBJ): OPT_tools := $(OPT_app)
# OpenShogiLib's move generator is compiled into this test, which runs it on 25,000 positions.
$(BUILD)/obj/tests/osl_oracle_test.o: OPT_tests := -O1
# toml11's parser, run once per client or council start, compiles fastest at -O0
# (docs/building.md); its readers too.
$(BUILD)/obj/base/toml_reader.o: OPT_base := -O0
$(BUILD)/obj/client/csa_config.o: OPT_client := -O0
$(BUILD)/obj/council/council_config.o: OPT_council := -O0
# doctest's assertions as function calls rather than inline blocks: a quarter less compiling
# of the tests; an exception thrown inside an assertion fails its test case instead.
$(TEST_OBJ): CXXFLAGS += -DDOCTEST_CONFIG_SUPER_FAST_ASSERTS

# The build's version and install directory (base/version.h): `git describe` and
# $(PREFIX)/share/sashite written into a header that is rewritten only when one of them
# changes, so that only base/version.cpp recompiles then.
$(BUILD)/gen/sashite_version.h: FORCE
	@mkdir -p $(@D)
	@printf '#define SASHITE_VERSION "%s"\n#define SASHITE_SHARE_DIR "%s"\n' \
	  "$$(git describe --always --dirty 2>/dev/null || echo unknown)" "$(SHARE_DIR)" > $@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi
$(BUILD)/obj/base/version.o: $(BUILD)/gen/sashite_version.h
$(BUILD)/obj/base/version.o: CXXFLAGS += -I$(BUILD)/gen

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(call opt_for,$<) -c -o $@ $<

# The unity groups (above): $(call unity_group,NAME,FILES,N,OPT) writes $(BUILD)/unity/NAME.list
# and N sources NAME_k.cpp, source k including every N-th file of the sorted list (a round robin,
# so that the heavy files, Boost.Asio's users, spread over the groups), compiled at OPT. The
# list is rewritten only when a file comes or goes, so a no-op `make` rebuilds nothing.
define unity_group
$$(BUILD)/unity/$1.list: FORCE
	@mkdir -p $$(@D)
	@printf '%s\n' $2 > $$@.new
	@if cmp -s $$@.new $$@; then rm $$@.new; else mv $$@.new $$@; fi
$$(call unity_sources,$1,$3): $$(BUILD)/unity/$1_%.cpp: $$(BUILD)/unity/$1.list
	awk -v k=$$* -v n=$3 'NR % n == k % n { printf "#include \"%s\"\n", $$$$0 }' $$< > $$@
$$(call unity_objects,$1,$3): $$(BUILD)/obj/unity/$1_%.o: $$(BUILD)/unity/$1_%.cpp
	@mkdir -p $$(@D)
	$$(CXX) $$(CXXFLAGS) $$(OPT_$4) -c -o $$@ $$<
endef
ifeq ($(UNITY),1)
  $(eval $(call unity_group,tests,$(TEST_GROUPED),$(TEST_UNITS),tests))
  $(eval $(call unity_group,tools,$(TOOLS_SRC),$(TOOLS_UNITS),tools))
  $(eval $(call unity_group,app,$(APP_SRC),$(APP_UNITS),app))
endif
FORCE:

# The default opening book: data/book/README.md. Built into a new directory, then swapped in;
# rebuilt when its source or the book format changes (not on every relink).
DEFAULT_BOOK_SRC := data/book/gpsshogi-joseki.yaneuraou.db.gz
$(BUILD)/book/default.stamp: $(DEFAULT_BOOK_SRC) book/book_format.h | $(BUILD)/sashite
	@mkdir -p $(@D)
	rm -rf $(BUILD)/book/default.new $(BUILD)/book/gpsshogi-joseki.yaneuraou.db
	gunzip -c $(DEFAULT_BOOK_SRC) > $(BUILD)/book/gpsshogi-joseki.yaneuraou.db
	$(BUILD)/sashite book import --format yaneuraou --book $(BUILD)/book/default.new \
	  $(BUILD)/book/gpsshogi-joseki.yaneuraou.db
	rm -rf $(BUILD)/book/default $(BUILD)/book/gpsshogi-joseki.yaneuraou.db
	mv $(BUILD)/book/default.new $(BUILD)/book/default
	touch $@

deps:
	scripts/install-deps.sh

install: bin
	scripts/install.sh "$(DESTDIR)$(PREFIX)" "$(BUILD)"

deps-if-missing:
	@scripts/install-deps.sh --check 2>/dev/null || scripts/install-deps.sh

# The README's test command: release build plus a debug ASan/UBSan build of the unit tests.
# The sanitizer build makes only the test binary: its bench-signature test searches in process
# and compares with build/sashite (compiling the command-line files under the sanitizers took
# a third of that build's time).
test: deps-if-missing
	$(MAKE) -j$(JOBS) test-build
	scripts/run-tests.sh

# Both builds under one job server, so that neither's last compile or link leaves a core idle.
test-build: all sanitize-tests-bin
sanitize-tests-bin:
	$(MAKE) BUILD=build/sanitize DEBUG=1 DEBUG_INFO=-g1 SANITIZE=address,undefined tests-bin

test-fast: all
	$(BUILD)/sashite_tests -tse=slow

test-slow: all
	$(BUILD)/sashite_tests -ts=slow

demo: deps-if-missing
	$(MAKE) -j$(JOBS) bin
	scripts/demo.sh

bench: bin
	$(BUILD)/sashite bench

# Every source of ours, as .clang-format has it: `make format` rewrites them, `make format-check`
# (CI) fails on any drift and names the files.
FORMAT_FILES := $(sort $(wildcard $(foreach d,base shogi engine engine/eval engine/mate engine/nnue \
                  usi council client book tools/* app tests fuzz,$(d)/*.h $(d)/*.cpp)))
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES) 2>&1 | grep -o '^[^:]*\.\(h\|cpp\):' | sort -u | \
	  sed 's/:$$/: differs from .clang-format (make format rewrites it)/' | grep . && exit 1 || \
	  echo "format-check: $(words $(FORMAT_FILES)) files as .clang-format has them"

# Each source compiled alone and each header included alone, syntax only (no code generated):
# the unity groups hide a file that leans on its neighbours' includes; this finds it, as a
# UNITY=0 build would, in a fraction of its time. The sources checked are those the build
# compiles in groups (the tools', the command-line and the grouped test files): the build
# compiles every other source alone, with the same headers and macros, which is this check.
# Each header likewise, but for one that its own source (the same name, .cpp) includes on its
# first preprocessor line: that source, compiled alone by the build or here, checks it as well.
INCLUDE_CHECK_H := $(shell for h in $(filter %.h,$(FORMAT_FILES)); do c=$${h%.h}.cpp; \
                     [ -f "$$c" ] && [ "$$(sed -n '/^[#]/{s/^[#]include "\(.*\)"$$/\1/p;q;}' \
                     "$$c")" = "$$h" ] || echo "$$h"; done)
INCLUDE_CHECK_SRC := $(TOOLS_SRC) $(APP_SRC) $(filter-out $(TEST_ALONE),$(TEST_SRC)) \
                     $(INCLUDE_CHECK_H)
INCLUDE_CHECK := $(INCLUDE_CHECK_SRC:%=$(BUILD)/include-check/%.ok)
include-check: $(INCLUDE_CHECK)
	@echo "include-check: $(words $(INCLUDE_CHECK)) files compile alone"
$(BUILD)/include-check/%.cpp.ok: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -fsyntax-only -MMD -MP -MF $@.d -MT $@ $<
	@touch $@
$(BUILD)/include-check/%.h.ok: %.h
	@mkdir -p $(@D)
	echo '#include "$<"' | $(CXX) $(CXXFLAGS) -fsyntax-only -MMD -MP -MF $@.d -MT $@ -x c++ -
	@touch $@
-include $(INCLUDE_CHECK:=.d)

# The tests where threads meet (the search's threads, the USI loop, the client's writer and
# status threads, the book loader, the tools' workers) under ThreadSanitizer, in a build of
# their own; scripts/tsan.supp lists the races that are meant (each with its reason). Its
# test binary holds only the test files whose cases scripts/run-thread-tests.sh runs (the
# script names them, and fails on a case no file holds): the others would never run there.
tsan-tests-bin:
	files=$$(scripts/run-thread-tests.sh --files) && \
	  $(MAKE) BUILD=build/tsan DEBUG=1 DEBUG_INFO=-g1 SANITIZE=thread TEST_FILES="$$files" tests-bin
test-threads: tsan-tests-bin
	scripts/run-thread-tests.sh build/tsan/sashite_tests

# What CI checks besides `make test` (.ci/run): the format, each file alone, the threads.
check-house: format-check include-check test-threads

clean:
	rm -rf build

# ---- Fuzzing: libFuzzer targets (fuzz/*_fuzzer.cpp) built with clang 14; not part of `make test`.
#   make fuzz                    build every target, run each FUZZ_SECONDS on a copy of its corpus
#   make fuzz FUZZ_SECONDS=600   longer runs; FUZZ_TARGETS='sfen_fuzzer' to run only some
# Everything goes to build/fuzz/: objects, binaries, corpus/<target> (the seeds of
# fuzz/corpus/<target> plus what the run found), <target>.log, and crash-* / leak-* / timeout-*
# inputs under artifacts/<target>/. A crash fails the target; the others still run.
# Reproduce one: build/fuzz/<target> build/fuzz/artifacts/<target>/crash-...
FUZZ_SECONDS ?= 60
FUZZ_CXX     ?= clang++-14
FUZZ_BUILD   ?= build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_FLAGS   := -std=c++20 -g -O1 -Wall -Wextra -pthread -I. -MMD -MP $(FUZZ_SAN)
FUZZ_LIB_SRC := $(wildcard base/*.cpp shogi/*.cpp engine/*.cpp engine/*/*.cpp usi/*.cpp client/*.cpp)
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.cpp=$(FUZZ_BUILD)/obj/%.o)
FUZZ_ALL     := $(patsubst fuzz/%.cpp,%,$(wildcard fuzz/*_fuzzer.cpp))
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_RUN_FLAGS := -max_len=65536 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1

fuzz: deps-if-missing
	@scripts/install-deps.sh --fuzz --check 2>/dev/null || scripts/install-deps.sh --fuzz
	$(MAKE) -j$(JOBS) $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/%)
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  rm -rf $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts/$$t; \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts/$$t; \
	  cp fuzz/corpus/$$t/* $(FUZZ_BUILD)/corpus/$$t/ || exit 1; \
	  echo "== $$t: $(FUZZ_SECONDS) s, log in $(FUZZ_BUILD)/$$t.log"; \
	  if $(FUZZ_BUILD)/$$t $(FUZZ_RUN_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	       -dict=fuzz/csa.dict -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t/ \
	       $(FUZZ_BUILD)/corpus/$$t > $(FUZZ_BUILD)/$$t.log 2>&1; then \
	    grep -E '^(#[0-9]+.*DONE|stat::(number_of_executed_units|average_exec_per_sec|new_units_added))' \
	      $(FUZZ_BUILD)/$$t.log || true; \
	  else \
	    failed="$$failed $$t"; tail -n 60 $(FUZZ_BUILD)/$$t.log; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: FAILED:$$failed (see $(FUZZ_BUILD)/artifacts)"; exit 1; fi; \
	echo "fuzz: no crash in$(FUZZ_TARGETS:%= %)"

.SECONDARY: $(FUZZ_ALL:%=$(FUZZ_BUILD)/obj/fuzz/%.o)

$(FUZZ_BUILD)/libsashite_fuzz.a: $(FUZZ_LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_BUILD)/%_fuzzer: $(FUZZ_BUILD)/obj/fuzz/%_fuzzer.o $(FUZZ_BUILD)/libsashite_fuzz.a
	$(FUZZ_CXX) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

$(FUZZ_BUILD)/obj/fuzz/%.o: fuzz/%.cpp
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_FLAGS) -fsanitize=fuzzer -c -o $@ $<

$(FUZZ_BUILD)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_ALL:%=$(FUZZ_BUILD)/obj/fuzz/%.d)

-include $(LIB_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(OSL_OBJ:.o=.d) $(OSL_MAIN_OBJ:.o=.d) \
         $(OSL_LABEL_MAIN_OBJ:.o=.d)
