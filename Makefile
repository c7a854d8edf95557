# Tilelens: `make run` starts the server for phones, `make test` runs every test.
# Both install what is missing first (`make install`).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# the Latin fonts too: the scenes draw corner indices in whichever of DejaVu and Liberation are
# installed (vision/faces/fonts.py), so without them a seed is another photo (chromium, a test
# package, brings Liberation in: the benchmarks' figures were measured with both)
APT_RUNTIME := fonts-noto-cjk fonts-wqy-zenhei fonts-arphic-ukai fonts-symbola fonts-dejavu-core fonts-liberation libraqm0
APT_TEST := chromium chromium-driver postgresql
APT_TRAIN := libcairo2
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# install whichever of the Debian packages $(1) are missing (one shell line)
apt_install = missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages: $$missing"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $$missing; \
	fi

.PHONY: install system-deps test-deps train-deps run test model banded-model flower-model bench clean

install: system-deps $(STAMP)

# Debian packages: tile fonts (rendering), and for the tests a real browser and PostgreSQL.
system-deps:
	@$(call apt_install,$(APT_RUNTIME))

test-deps:
	@$(call apt_install,$(APT_TEST))

train-deps:
	@$(call apt_install,$(APT_TRAIN))

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

run: install
	$(PY) -m api

test: install test-deps
	$(PY) -m pytest -q

# Train the tile classifier (2-core CPU: 23-45 minutes; uses a GPU when present). Not part of CI.
model: install train-deps
	$(PY) -m pip install -q -e ".[train]"
	$(PY) -m vision.train

# Train the banded reader, models/tiles_banded.onnx: the same recipe with body bands (docs/classifier.md).
# The caps are raised for a 2-core machine, where the default ones stop the stages short. Not part of CI.
banded-model: install train-deps
	$(PY) -m pip install -q -e ".[train]"
	$(PY) -m vision.train --banded --minutes-a 40 --minutes-b 50

# Train the flower reader, models/flowers.onnx (CPU, about 30 minutes from nothing; docs/classifier.md). Not part of CI.
flower-model: install train-deps
	$(PY) -m pip install -q -e ".[train]"
	$(PY) -m vision.train_flowers

bench: install
	$(PY) bench/engine_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
