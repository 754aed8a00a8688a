# Two commands for a newcomer: `make lab` opens the tutorials, `make test` runs every test.
VENV ?= .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
CHROMIUM ?= /usr/bin/chromium
PORT ?= 8888
LAB_LOG_LEVEL ?= WARN
# root (as in CI and many classroom VMs) needs --allow-root; a normal user does not mind the flag. The port is
# fixed (no retry on another one), so the printed link is the right one; the server log is kept to warnings.
JUPYTER_FLAGS := --ip=127.0.0.1 --port=$(PORT) --ServerApp.port_retries=0 --allow-root --ServerApp.root_dir=notebooks \
  --ServerApp.log_level=$(LAB_LOG_LEVEL) --LabApp.log_level=$(LAB_LOG_LEVEL)
# jupyter_config/ is read before the user's own Jupyter configuration: no news pop-up (JupyterLab's announcements
# plugin is off), no notebook_shim (it reads the deprecated ServerApp.token at start: a DeprecationWarning), kernels
# over local sockets (no "TCP without encryption" warning) and tornado's websocket ping timeout within its interval.
LAB_CONFIG := $(CURDIR)/jupyter_config
# The page `make lab` opens: the first tutorial, not the launcher.
FIRST_PAGE := lab/tree/00_welcome.ipynb

.PHONY: lab test classroom serve browser site clean

$(INSTALLED): pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[all]'
	touch $(INSTALLED)

# A fresh token for each start, printed inside the one link to open (the browser opens it too, where there is one).
lab: $(INSTALLED)
	@token=$$($(PYTHON) -c 'import secrets; print(secrets.token_hex(16))'); \
	printf '\n  Open the tutorials:  http://127.0.0.1:%s/%s?token=%s\n  Stop: Ctrl-C twice.\n\n' \
	  '$(PORT)' '$(FIRST_PAGE)' "$$token"; \
	exec env JUPYTER_CONFIG_PATH="$(LAB_CONFIG)$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH}" \
	  $(VENV)/bin/jupyter lab $(JUPYTER_FLAGS) --IdentityProvider.token="$$token" --LabApp.default_url=/$(FIRST_PAGE)

# The classroom page of one game (GAME=peek, commissario, get_adler or mafia_de_cuba): only the table, in
# projector mode, with our Voila template (no file fetched from the internet: it works offline). In French with
# LANG=fr (or on a machine whose locale is French); the page's own ?lang=fr or ?lang=en says it too.
classroom: $(INSTALLED)
	TABLETOP_LANGUAGE=$(if $(filter fr%,$(LANG)),fr,en) \
	JUPYTER_PATH=$(CURDIR)/tabletop_edu/widgets/jupyter_data $(VENV)/bin/voila \
	  notebooks/classroom/$(or $(GAME),mafia_de_cuba).ipynb --template=tabletop --theme=light \
	  --no-browser --port=$(PORT) --Voila.ip=127.0.0.1

# The class server: students join from their own devices (README, "Class play"). SERVE_PORT=0 takes any free port;
# add SERVE_FLAGS=--network to let phones on the classroom network in.
serve: $(INSTALLED)
	$(PYTHON) -m tabletop_edu serve --port $(or $(SERVE_PORT),8000) $(SERVE_FLAGS)

# Browser tests drive Debian's chromium, and the site's test builds the site (npm fetches Pyodide): install
# them when missing (needs root or sudo).
# Only what is missing: a machine whose Node.js brings its own npm cannot take Debian's npm package beside it.
browser:
	@missing="$$(test -x $(CHROMIUM) || echo chromium) $$(command -v npm >/dev/null || echo npm)"; \
	test -z "$$(echo $$missing)" || { SUDO=$$(test $$(id -u) -eq 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; }

# The play tutorials as a static JupyterLite site in build/site, for any static web server (README, "In any
# browser, with nothing installed"). Downloads (npm, PyPI) are cached in build/cache.
site: $(INSTALLED)
	@command -v npm >/dev/null || $(MAKE) browser
	$(PYTHON) site/build.py

# Two workers (pytest-xdist), each given whole files: a notebook's cells run in order in one kernel, and a test
# file's servers and browser are set up once. The browser tests mostly wait on their pages: 13 minutes, not 20.
test: $(INSTALLED) browser
	$(VENV)/bin/pytest -n 2 --dist loadfile --nbval --nbval-sanitize-with tests/sanitize.cfg tests notebooks

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts build
