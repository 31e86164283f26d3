# Thin wrapper over CMake (house style: DuckDB's Makefile idea). Run as root on Debian 12.
#   make demo   install what is missing, build Release, simulate a bundled example
#   make test   install what is missing, build, run every test (Release + ASan/UBSan) via ctest
#   make build  build only
#   make e2e-deps  what the browser tests need: Debian's chromium, Node.js/npm if missing, and
#               playwright-core from tests/e2e/package-lock.json (make test runs it; a failure
#               here only makes the browser tests skip, saying why)
#   make bench  build and run the Google Benchmarks
#   make fuzz   install clang if missing, build the libFuzzer target (build/fuzz), fuzz for
#               FUZZ_SECONDS (default 300); make fuzz-smoke: the same for FUZZ_SMOKE_SECONDS (CI)

DEB_PACKAGES := g++ cmake ninja-build pkg-config zlib1g-dev libyaml-dev libsimdjson-dev nlohmann-json3-dev libfmt-dev \
                libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev libcpp-httplib-dev python3 python3-yaml
RELEASE_DIR := build/release
ASAN_DIR := build/asan
BENCH_DIR := build/bench
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEMO ?= examples/cascade.yaml
# make fuzz: clang and its libFuzzer runtime (Debian 12), only needed for the fuzz build.
FUZZ_DEB_PACKAGES := clang libclang-rt-14-dev
FUZZ_DIR := build/fuzz
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 60
FUZZ_FLAGS ?= -max_len=4096 -timeout=10 -rss_limit_mb=2048

.PHONY: deps fuzz-deps e2e-deps build demo test test-release test-asan bench fuzz fuzz-smoke fuzz-build clean

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# The browser tests' needs. Chromium from Debian (never a downloaded browser); Node.js and npm from
# Debian only when no node is installed; playwright-core pinned by tests/e2e/package-lock.json.
e2e-deps:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="chromium" || echo "e2e-deps: chromium could not be installed; the browser tests will skip"
	@command -v npm >/dev/null || $(MAKE) --no-print-directory deps DEB_PACKAGES="nodejs npm" || echo "e2e-deps: npm could not be installed; the browser tests will skip"
	@if [ ! -d tests/e2e/node_modules/playwright-core ]; then \
	  (cd tests/e2e && npm ci --no-audit --no-fund) || echo "e2e-deps: npm ci failed; the browser tests will skip"; \
	fi

# The same install, for the fuzz build's packages.
fuzz-deps: deps
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(FUZZ_DEB_PACKAGES)"

$(RELEASE_DIR)/build.ninja:
	cmake -S . -B $(RELEASE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DKPSIM_WERROR=$(if $(CI),ON,OFF)

$(ASAN_DIR)/build.ninja:
	cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DKPSIM_SANITIZE=ON

$(BENCH_DIR)/build.ninja:
	cmake -S . -B $(BENCH_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DKPSIM_BUILD_TESTS=OFF -DKPSIM_BUILD_BENCH=ON

build: deps $(RELEASE_DIR)/build.ninja
	cmake --build $(RELEASE_DIR) -j $(JOBS)

demo: build
	./$(RELEASE_DIR)/kpsim simulate $(DEMO)

test-release: build e2e-deps
	cd $(RELEASE_DIR) && ctest --output-on-failure -j $(JOBS)

test-asan: deps $(ASAN_DIR)/build.ninja
	cmake --build $(ASAN_DIR) -j $(JOBS)
	cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -LE slow

test: test-release test-asan

bench: deps $(BENCH_DIR)/build.ninja
	cmake --build $(BENCH_DIR) -j $(JOBS)
	./$(BENCH_DIR)/kpsim_bench

# The fuzz build: clang, -fsanitize=fuzzer,address,undefined, asserts on (see CMakeLists.txt).
$(FUZZ_DIR)/build.ninja:
	cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DKPSIM_BUILD_TESTS=OFF -DKPSIM_FUZZ=ON

fuzz-build: fuzz-deps $(FUZZ_DIR)/build.ninja
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target kpsim_manifest_fuzzer

# Seeds: every YAML/JSON file under examples/, tests/, fuzz/seeds/ and the fixed reproducers, copied
# into the build dir at run time; new inputs accumulate in $(FUZZ_DIR)/corpus across runs and
# crashes land in $(FUZZ_DIR)/artifacts/ (a non-zero exit fails the make).
define run-fuzzer
	rm -rf $(FUZZ_DIR)/seeds && mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	find examples tests fuzz/seeds fuzz/regressions -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \
	  -o -path 'fuzz/regressions/*' \) ! -path 'fuzz/regressions/open/*' ! -name 'README*' | while read -r f; do \
	  cp "$$f" "$(FUZZ_DIR)/seeds/$$(echo "$$f" | tr / _)"; done
	./$(FUZZ_DIR)/kpsim_manifest_fuzzer $(FUZZ_FLAGS) -max_total_time=$(1) $(2) \
	  -dict=fuzz/kubernetes.dict -artifact_prefix=$(FUZZ_DIR)/artifacts/ -print_final_stats=1 \
	  $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds
endef

fuzz: fuzz-build
	$(call run-fuzzer,$(FUZZ_SECONDS),)

# Short and seeded, for CI.
fuzz-smoke: fuzz-build
	$(call run-fuzzer,$(FUZZ_SMOKE_SECONDS),-seed=1)

clean:
	rm -rf build
