# rwatch: two commands do all set-up on a fresh Debian machine.
#   make run   install what is missing, build, run rwatch's main job
#   make test  install what is missing, run every test

SWIFT      ?= swift
PREFIX     ?= /usr/local
APT_PKGS   := libinotifytools0-dev
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build run test test-tsan install clean

all: build

# Installs the Debian packages rwatch builds against, only when missing.
deps:
	@missing=""; for p in $(APT_PKGS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "installing:$$missing"; \
	    $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

run: build
	$(SWIFT) run rwatch --help

test: deps
	$(SWIFT) test

# The reactive core under ThreadSanitizer.
test-tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter SignalsTests

clean:
	rm -rf .build .build-*
