# The two commands of the README's quickstart.  Each sets up what it needs:
# a virtual environment in .venv with the package, its test dependencies and the
# extra `web` (leanblueprint: the web blueprint with its dependency graph);
# the Lean toolchain installs itself on first use (see README, "Lean").
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-packaging clean help

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

run: $(STAMP)  ## the main job: check proofs, derive, audit, write build/
	$(BIN)/moe-theory all

test: $(STAMP)  ## the test suite (runs Lean; 2–3.5 minutes on 2 cores)
	$(BIN)/pytest -n 2 --dist loadgroup -m "not packaging"

test-packaging: $(STAMP)  ## the packaging tests: the wheel, installed and run elsewhere; the pre-commit hooks (CI runs them too)
	$(BIN)/pytest -n 2 --dist loadgroup -m packaging

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,web]'
	touch $(STAMP)

clean:  ## remove build/ and the virtual environment
	rm -rf build $(VENV)
