# rwatch: two commands do all set-up on a fresh Debian machine.
#   make run   install what is missing, build, run rwatch's main job
#   make test  install what is missing, run every test

SWIFT      ?= swift
PREFIX     ?= /usr/local
APT_PKGS   := libinotifytools0-dev libpcre2-dev bash-completion zsh fish bindfs watchman python3-venv python3-dev
# pywatchman (PyPI) for the service's client tests, in a virtualenv of its own.
PYCLIENTS  := $(CURDIR)/.build-pyclients
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release run test test-tsan example bench fuzz install uninstall clean

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
	@# Debian's watchman package starts no daemon; its CLI spawns one only
	@# without --no-spawn, which the tests always pass.
	@[ -x $(PYCLIENTS)/bin/python ] && $(PYCLIENTS)/bin/python -c 'import pywatchman' 2>/dev/null || { \
	    echo "installing pywatchman into $(PYCLIENTS)"; \
	    python3 -m venv $(PYCLIENTS) && $(PYCLIENTS)/bin/pip install -q pywatchman; }

build: deps
	$(SWIFT) build

# The lean release binary, .build/release/rwatch, with libRecipeKit.so
# beside it (recipes compile and link against it). The binary has the
# Swift runtime linked in (-static-stdlib), so only the pages rwatch touches are loaded, with no
# shared libswiftCore, Foundation or Regex libraries to map and relocate.
# Only executables are linked statically: libRecipeKit.so and the recipes
# it serves keep the shared runtime, and a recipe is its own process, so no
# process ever holds two runtimes. ArgumentParser imports
# FoundationEssentials against the shared module, which names none of the
# static archive's own dependencies: they are named here (the
# dynamic libRecipeKit.so links none of their members). lld, because gold
# warns about a glibc function in an archive member it then drops. These
# flags live here, not in Package.swift, so that the package stays usable
# as a dependency. (`swift build -c release` alone gives a working binary
# on the shared runtime.)
SWIFT_STATIC  := $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/../lib/swift_static/linux
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -L$(SWIFT_STATIC) \
    -Xlinker -l_FoundationCollections -Xlinker -l_FoundationCShims

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product rwatch
	$(SWIFT) build $(RELEASE_FLAGS) --product RecipeKit

# Rebuilds the bundled demo package on every save of recipes/demo/Sources:
# edit recipes/demo/Sources/Greeting/Greeting.swift in another terminal.
run: build
	@echo "rwatch: edit recipes/demo/Sources/Greeting/Greeting.swift and save; Ctrl-C to stop"
	$$($(SWIFT) build --show-bin-path)/rwatch run rebuild-on-save recipes/demo

# Every test (the service's client tests with pywatchman and watchman's
# CLI, which `deps` installed), then the reactive core's and the service's tests (their concurrency stress tests
# among them) again under ThreadSanitizer.
test: deps
	RWATCH_CLIENT_TESTS=1 RWATCH_PYTHON=$(PYCLIENTS)/bin/python $(SWIFT) test
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter 'SignalsTests|ServiceTests|WatchmanProtocolTests'

# Every library's tests under ThreadSanitizer. The end-to-end tests that
# compile recipes are left out: a recipe cannot link against a
# TSan-instrumented RecipeKit.
test-tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter 'SignalsTests|WatchSourcesTests|RecipeKitTests'

# Builds Examples/, a package that depends on this repository by URL, against
# a clone of the committed HEAD (the URL rewritten to file:// of the clone),
# then runs it once. Not part of `make test`.
example: deps
	SWIFT=$(SWIFT) Examples/build.sh

# Runs the Signals benchmarks (Benchmarks/Signals, ordo-one/benchmark):
# every shape side by side with OpenCombine and a closure floor, then fails
# if a Signals row regressed past Benchmarks/Signals/Thresholds. Not part of
# `make test`. After an intended change, store new figures with
#   cd Benchmarks/Signals && swift package --allow-writing-to-package-directory \
#       benchmark thresholds update --filter '.*:Signals'
bench: deps
	cd Benchmarks/Signals && $(SWIFT) package benchmark thresholds check --no-progress

# Builds the libFuzzer harnesses of Fuzz/ (one per parser of user input) in
# .build-fuzz and runs each for FUZZ_TIME seconds (default 600), FUZZ_JOBS
# (default 1) at a time; fails on any crash, saved in Fuzz/Crashes/. Not
# part of `make test`.
fuzz: deps
	SWIFT=$(SWIFT) Fuzz/run.sh

# Installs rwatch with what recipe compilation needs, so that an installed
# rwatch compiles recipes outside the source tree:
#   $(PREFIX)/bin/rwatch
#   $(PREFIX)/lib/rwatch/libRecipeKit.so and Modules/ (RecipeKit, Signals, WatchSources,
#     SystemPackage, and the module maps of CInotifyTools, CGlibcShims and swift-system's CSystem)
#   $(PREFIX)/share/rwatch/recipes/*.swift, $(PREFIX)/share/man/man1/rwatch.1
#   completions where bash-completion, zsh and fish look under $(PREFIX)/share
install: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product rwatch
	$(SWIFT) build $(RELEASE_FLAGS) --product RecipeKit
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path); \
	set -e; \
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/rwatch/Modules \
	    $(DESTDIR)$(PREFIX)/share/rwatch/recipes $(DESTDIR)$(PREFIX)/share/man/man1; \
	install -m 755 $$bin/rwatch $(DESTDIR)$(PREFIX)/bin/rwatch; \
	install -m 755 $$bin/libRecipeKit.so $(DESTDIR)$(PREFIX)/lib/rwatch/libRecipeKit.so; \
	for m in RecipeKit Signals WatchSources SystemPackage; do \
	    for ext in swiftmodule swiftdoc; do \
	        if [ -e $$bin/Modules/$$m.$$ext ]; then cp -R $$bin/Modules/$$m.$$ext $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/; fi; \
	    done; \
	done; \
	install -d $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CInotifyTools; \
	install -m 644 Sources/CInotifyTools/module.modulemap Sources/CInotifyTools/shim.h $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CInotifyTools/; \
	install -d $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CGlibcShims; \
	install -m 644 Sources/CGlibcShims/include/module.modulemap Sources/CGlibcShims/include/CGlibcShims.h \
	    $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CGlibcShims/; \
	install -d $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CSystem; \
	install -m 644 .build/checkouts/swift-system/Sources/CSystem/include/*.h \
	    .build/checkouts/swift-system/Sources/CSystem/include/module.modulemap $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CSystem/; \
	install -m 644 recipes/*.swift $(DESTDIR)$(PREFIX)/share/rwatch/recipes/; \
	install -m 644 man/rwatch.1 $(DESTDIR)$(PREFIX)/share/man/man1/rwatch.1; \
	share=$(DESTDIR)$(PREFIX)/share; \
	install -d $$share/bash-completion/completions $$share/zsh/site-functions $$share/fish/vendor_completions.d; \
	$$bin/rwatch completions bash > $$share/bash-completion/completions/rwatch; \
	$$bin/rwatch completions zsh > $$share/zsh/site-functions/_rwatch; \
	$$bin/rwatch completions fish > $$share/fish/vendor_completions.d/rwatch.fish; \
	echo "installed rwatch in $(DESTDIR)$(PREFIX)"

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/rwatch $(DESTDIR)$(PREFIX)/lib/rwatch \
	    $(DESTDIR)$(PREFIX)/share/rwatch $(DESTDIR)$(PREFIX)/share/man/man1/rwatch.1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/rwatch \
	    $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_rwatch \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/rwatch.fish

clean:
	rm -rf .build .build-*
