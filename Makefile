# The two commands of the README: `make run` and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
SAMPLE := resources/sample/tas_rectilinear_grid_2D.nc
# Looked for when configure runs (`=`, not `:=`), after setup has installed ccache: on a fresh
# machine the first configure then has the launcher the next ones have. A launcher that appears
# between two configures relinks every target.
LAUNCHER = $(shell command -v ccache >/dev/null 2>&1 && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)

.PHONY: all setup configure build run test clean format

all: build

setup:
	@scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(LAUNCHER) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

run: build
	$(BUILD)/app/strata $(SAMPLE)

test: build
	@scripts/run-tests.sh $(BUILD)

format:
	@git ls-files '*.h' '*.cpp' '*.cu' '*.cuh' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
