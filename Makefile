# sashite: build, test and demo. See README.md.
#   make            build build/sashite and the test binary (optimised)
#   make test       install what is missing, build, run every test (sanitizers included)
#   make demo       install what is missing, build, show the system at work
#   make deps       install the Debian packages the build and tests need (as root)
# Knobs: DEBUG=1 (-O1 -g, assertions), SANITIZE=address,undefined, NATIVE=1 (-march=native).

CXX      ?= g++
BUILD    ?= build
JOBS     ?= $(shell nproc)
CXXFLAGS := -std=c++20 -Wall -Wextra -pthread -I. -MMD -MP
LDLIBS   := -lleveldb -llinear -lspdlog -lfmt -pthread
TEST_LDLIBS := $(LDLIBS) -losl

ifeq ($(DEBUG),1)
  CXXFLAGS += -O1 -g -D_GLIBCXX_ASSERTIONS
else
  CXXFLAGS += -O3 -DNDEBUG
endif
ifneq ($(SANITIZE),)
  CXXFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDFLAGS  += -fsanitize=$(SANITIZE)
endif
ifeq ($(NATIVE),1)
  CXXFLAGS += -march=native
endif
CXXFLAGS += -DSASHITE_TEST_DATA_DIR='"$(CURDIR)/tests/data"'

LIB_SRC  := $(wildcard engine/*.cpp engine/*/*.cpp client/*.cpp book/*.cpp tools/*.cpp)
APP_SRC  := $(wildcard app/*.cpp)
TEST_SRC := $(wildcard tests/*.cpp)
LIB_OBJ  := $(LIB_SRC:%.cpp=$(BUILD)/obj/%.o)
APP_OBJ  := $(APP_SRC:%.cpp=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.cpp=$(BUILD)/obj/%.o)

.PHONY: all bin tests-bin deps deps-if-missing test test-fast test-slow demo bench format clean

all: bin tests-bin
bin: $(BUILD)/sashite
tests-bin: $(BUILD)/sashite_tests

$(BUILD)/libsashite.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/sashite: $(APP_OBJ) $(BUILD)/libsashite.a
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/sashite_tests: $(TEST_OBJ) $(BUILD)/libsashite.a
	$(CXX) $(CXXFLAGS) $(LDFLAGS) -o $@ $^ $(TEST_LDLIBS)

$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -c -o $@ $<

deps:
	scripts/install-deps.sh

deps-if-missing:
	@scripts/install-deps.sh --check 2>/dev/null || scripts/install-deps.sh

# The README's test command: release build plus a debug ASan/UBSan build of the unit tests.
test: deps-if-missing
	$(MAKE) -j$(JOBS) all
	$(MAKE) -j$(JOBS) BUILD=build/sanitize DEBUG=1 SANITIZE=address,undefined bin tests-bin
	scripts/run-tests.sh

test-fast: all
	$(BUILD)/sashite_tests -tse=slow

test-slow: all
	$(BUILD)/sashite_tests -ts=slow

demo: deps-if-missing
	$(MAKE) -j$(JOBS) bin
	scripts/demo.sh

bench: bin
	$(BUILD)/sashite bench

format:
	clang-format -i $(wildcard engine/*.h engine/*.cpp engine/*/*.h engine/*/*.cpp app/*.cpp app/*.h tools/*.cpp tools/*.h tests/*.cpp)

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
