# Two commands for a newcomer: `make lab` opens the tutorials, `make test` runs every test.
VENV ?= .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
CHROMIUM ?= /usr/bin/chromium
PORT ?= 8888
# root (as in CI and many classroom VMs) needs --allow-root; a normal user does not mind the flag.
JUPYTER_FLAGS := --ip=127.0.0.1 --port=$(PORT) --allow-root --ServerApp.root_dir=notebooks

.PHONY: lab test classroom serve browser clean

$(INSTALLED): pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[lab,test,scale,rl,openspiel]'
	touch $(INSTALLED)

lab: $(INSTALLED)
	$(VENV)/bin/jupyter lab $(JUPYTER_FLAGS)

# The classroom page of one game (GAME=peek, commissario, get_adler or mafia_de_cuba): only the table, in
# projector mode, with our Voila template (no file fetched from the internet: it works offline).
classroom: $(INSTALLED)
	JUPYTER_PATH=$(CURDIR)/tabletop_edu/widgets/jupyter_data $(VENV)/bin/voila \
	  notebooks/classroom/$(or $(GAME),mafia_de_cuba).ipynb --template=tabletop --theme=light \
	  --no-browser --port=$(PORT) --Voila.ip=127.0.0.1

# The class server: students join from their own devices (README, "Class play"). SERVE_PORT=0 takes any free port;
# add SERVE_FLAGS=--network to let phones on the classroom network in.
serve: $(INSTALLED)
	$(PYTHON) -m tabletop_edu serve --port $(or $(SERVE_PORT),8000) $(SERVE_FLAGS)

# Browser tests drive Debian's chromium; install it when missing (needs root or sudo).
browser:
	@test -x $(CHROMIUM) || { SUDO=$$(test $$(id -u) -eq 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

test: $(INSTALLED) browser
	$(VENV)/bin/pytest --nbval --nbval-sanitize-with notebooks/sanitize.cfg tests notebooks

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
