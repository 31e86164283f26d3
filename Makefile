# Thin wrapper over CMake (house style: DuckDB's Makefile idea). Run as root on Debian 12.
#   make demo   install what is missing, build Release, simulate a bundled example
#   make test   install what is missing, build, run every test (Release + ASan/UBSan) via ctest
#   make build  build only
#   make bench  build and run the Google Benchmarks

DEB_PACKAGES := g++ cmake ninja-build pkg-config libyaml-dev libsimdjson-dev nlohmann-json3-dev libfmt-dev \
                libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev python3
RELEASE_DIR := build/release
ASAN_DIR := build/asan
BENCH_DIR := build/bench
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEMO ?= examples/cascade.yaml

.PHONY: deps build demo test test-release test-asan bench clean

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

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

test-release: build
	cd $(RELEASE_DIR) && ctest --output-on-failure -j $(JOBS)

test-asan: deps $(ASAN_DIR)/build.ninja
	cmake --build $(ASAN_DIR) -j $(JOBS)
	cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -LE slow

test: test-release test-asan

bench: deps $(BENCH_DIR)/build.ninja
	cmake --build $(BENCH_DIR) -j $(JOBS)
	./$(BENCH_DIR)/kpsim_bench

clean:
	rm -rf build
