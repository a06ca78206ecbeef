# rwatch: two commands do all set-up on a fresh Debian machine.
#   make run   install what is missing, build, run rwatch's main job
#   make test  install what is missing, run every test

SWIFT      ?= swift
PREFIX     ?= /usr/local
# The build folder of release, install and dist (swift build --scratch-path):
# another one lets a second tree or session build beside this one.
SCRATCH    ?= .build
# node-sane carries fb-watchman, the watchman client of Jest and Metro.
APT_PKGS   := libpcre2-dev bash-completion zsh fish bindfs watchman python3-venv python3-dev node-sane
# What make dist (dpkg-shlibdeps, objcopy) and make dist-check (lintian, man) use.
DIST_PKGS  := dpkg-dev binutils lintian man-db
# pywatchman (PyPI) for the service's client tests, in a virtualenv of its own.
PYCLIENTS  := $(CURDIR)/.build-pyclients
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The one place the version lives is Sources/rwatch/Version.swift; the
# package names follow it.
VERSION    := $(shell sed -n 's/^ *static let number = "\(.*\)"$$/\1/p' Sources/rwatch/Version.swift)

.PHONY: all deps build-info build release run test test-tsan example bench fuzz install install-files uninstall \
    dist dist-deps dist-check clean

all: build

# Installs the Debian packages named in $(1) that are missing.
define apt-install
	@missing=""; for p in $(1); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    echo "installing:$$missing"; \
	    $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

# The Debian packages rwatch builds against and its tests use.
deps:
	$(call apt-install,$(APT_PKGS))
	@# Debian's watchman package starts no daemon; its CLI spawns one only
	@# without --no-spawn, which the tests always pass.
	@[ -x $(PYCLIENTS)/bin/python ] && $(PYCLIENTS)/bin/python -c 'import pywatchman' 2>/dev/null || { \
	    echo "installing pywatchman into $(PYCLIENTS)"; \
	    python3 -m venv $(PYCLIENTS) && $(PYCLIENTS)/bin/pip install -q pywatchman; }

# Records the commit and the Swift version in a header git ignores
# (Sources/CBuildInfo): rwatch --version prints the commit, and a recipe
# needs the Swift version that built RecipeKit. A plain `swift build`
# works without it (commit unknown, any swiftc).
build-info:
	@Packaging/build-info.sh "$(SWIFT)" Sources/CBuildInfo/build-info.h

build: deps build-info
	$(SWIFT) build

# The lean release binary, $(SCRATCH)/release/rwatch, with libRecipeKit.so
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
# on the shared runtime.) libRecipeKit.so names no toolchain folder
# (-no-toolchain-stdlib-rpath): a recipe binary, linked by the user's
# swiftc, loads the runtime from that toolchain before libRecipeKit.so,
# wherever it is installed. -z now: relocations resolved at start, then
# read-only (full RELRO).
SWIFT_STATIC  := $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/../lib/swift_static/linux
RELEASE_FLAGS := --scratch-path $(SCRATCH) -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -L$(SWIFT_STATIC) \
    -Xlinker -l_FoundationCollections -Xlinker -l_FoundationCShims \
    -Xswiftc -no-toolchain-stdlib-rpath -Xlinker -z -Xlinker now

release: deps build-info
	$(SWIFT) build $(RELEASE_FLAGS) --product rwatch
	$(SWIFT) build $(RELEASE_FLAGS) --product RecipeKit

# Rebuilds the bundled demo package on every save of recipes/demo/Sources:
# edit recipes/demo/Sources/Greeting/Greeting.swift in another terminal.
run: build
	@echo "rwatch: edit recipes/demo/Sources/Greeting/Greeting.swift and save; Ctrl-C to stop"
	$$($(SWIFT) build --show-bin-path)/rwatch run rebuild-on-save recipes/demo

# No Swift file in Sources/ over 400 lines and no function over 60
# (Scripts/check-size.py), then every test (the service's client tests with pywatchman, Node's fb-watchman and
# watchman's CLI, which `deps` installed), then the reactive core's, the service's and RecipeTesting's tests (their
# concurrency stress tests among them) again under ThreadSanitizer, then the packages (dist-check).
test: deps build-info
	python3 Scripts/check-size.py
	RWATCH_CLIENT_TESTS=1 RWATCH_PYTHON=$(PYCLIENTS)/bin/python $(SWIFT) test
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter 'SignalsTests|ServiceTests|WatchmanProtocolTests|RecipeTestingTests'
	$(MAKE) --no-print-directory dist-check

# Every library's tests under ThreadSanitizer. The end-to-end tests that
# compile recipes are left out: a recipe cannot link against a
# TSan-instrumented RecipeKit.
test-tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter 'SignalsTests|WatchSourcesTests|RecipeKitTests|RecipeTestingTests'

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
#   $(PREFIX)/lib/rwatch/libRecipeKit.so and Modules/ (RecipeKit, RecipeTesting, Signals, WatchSources,
#     WatchmanProtocol (WatchSources speaks it to a running service), SystemPackage,
#     and the module maps of CGlibcShims and swift-system's CSystem)
#   $(PREFIX)/share/rwatch/recipes/*.swift, $(PREFIX)/share/man/man1/rwatch.1
#   completions where bash-completion, zsh and fish look under $(PREFIX)/share
# install-files does the copying, from the release build in $(SCRATCH).
install: release
	@$(MAKE) --no-print-directory install-files

ZSH_COMPLETIONS ?= $(PREFIX)/share/zsh/site-functions
install-files:
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path); \
	set -e; \
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/rwatch/Modules \
	    $(DESTDIR)$(PREFIX)/share/rwatch/recipes $(DESTDIR)$(PREFIX)/share/man/man1; \
	install -m 755 $$bin/rwatch $(DESTDIR)$(PREFIX)/bin/rwatch; \
	install -m 644 $$bin/libRecipeKit.so $(DESTDIR)$(PREFIX)/lib/rwatch/libRecipeKit.so; \
	for m in RecipeKit RecipeTesting Signals WatchSources WatchmanProtocol SystemPackage; do \
	    for ext in swiftmodule swiftdoc; do \
	        if [ -e $$bin/Modules/$$m.$$ext ]; then cp -R $$bin/Modules/$$m.$$ext $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/; fi; \
	    done; \
	done; \
	install -d $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CGlibcShims; \
	install -m 644 Sources/CGlibcShims/include/module.modulemap Sources/CGlibcShims/include/CGlibcShims.h \
	    $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CGlibcShims/; \
	install -d $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CSystem; \
	install -m 644 $(SCRATCH)/checkouts/swift-system/Sources/CSystem/include/*.h \
	    $(SCRATCH)/checkouts/swift-system/Sources/CSystem/include/module.modulemap $(DESTDIR)$(PREFIX)/lib/rwatch/Modules/CSystem/; \
	install -m 644 recipes/*.swift $(DESTDIR)$(PREFIX)/share/rwatch/recipes/; \
	install -m 644 man/rwatch.1 $(DESTDIR)$(PREFIX)/share/man/man1/rwatch.1; \
	share=$(DESTDIR)$(PREFIX)/share; \
	install -d $$share/bash-completion/completions $(DESTDIR)$(ZSH_COMPLETIONS) $$share/fish/vendor_completions.d; \
	$$bin/rwatch completions bash > $$share/bash-completion/completions/rwatch; \
	$$bin/rwatch completions zsh > $(DESTDIR)$(ZSH_COMPLETIONS)/_rwatch; \
	$$bin/rwatch completions fish > $$share/fish/vendor_completions.d/rwatch.fish; \
	echo "installed rwatch in $(DESTDIR)$(PREFIX)"

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/rwatch $(DESTDIR)$(PREFIX)/lib/rwatch \
	    $(DESTDIR)$(PREFIX)/share/rwatch $(DESTDIR)$(PREFIX)/share/man/man1/rwatch.1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/rwatch \
	    $(DESTDIR)$(ZSH_COMPLETIONS)/_rwatch \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/rwatch.fish

# The packages, from a clean checkout, into dist/ (Packaging/dist.sh says
# what each holds):
#   dist/rwatch_$(VERSION)_amd64.deb, dist/rwatch-dbgsym_$(VERSION)_amd64.deb
#   dist/rwatch-watchman_$(VERSION)_all.deb (/usr/bin/watchman, a link to
#     rwatch: Provides, Conflicts and Replaces watchman)
#   dist/rwatch-$(VERSION)-linux-x86_64.tar.gz (tar -xzf … -C ~/.local; its
#     libexec/rwatch/watchman-compat/watchman goes on PATH only by choice)
#   dist/SHA256SUMS
# The .deb installs to /usr, with zsh's completion where Debian's zsh looks.
DIST_STAGE     := $(SCRATCH)/dist-stage
DEB_MAINTAINER ?= rwatch maintainers <maintainers@users.noreply.a-seed-a6f483f2.example>
dist: release dist-deps
	rm -rf $(DIST_STAGE)
	$(MAKE) --no-print-directory install-files DESTDIR=$(DIST_STAGE)/tar PREFIX=
	$(MAKE) --no-print-directory install-files DESTDIR=$(DIST_STAGE)/deb PREFIX=/usr \
	    ZSH_COMPLETIONS=/usr/share/zsh/vendor-completions
	DEB_MAINTAINER="$(DEB_MAINTAINER)" Packaging/dist.sh $(VERSION) $(DIST_STAGE) dist

dist-deps:
	$(call apt-install,$(DIST_PKGS))

# Installs and uses what make dist wrote (Packaging/dist-check.sh): the
# .debs with dpkg into a throwaway root, the tarball into an empty prefix,
# run without a Swift toolchain, then a bundled recipe with one, and git's
# fsmonitor hook through rwatch-watchman's watchman. First
# lintian, which must find nothing but these tags, each kept for a reason:
#   spelling-error-in-binary: the words it flags (overriden, matchign, …)
#     are strings of the Swift runtime and regex library linked in, not
#     rwatch's text.
#   hardening-no-fortify-functions: fortified glibc calls come from C built
#     with _FORTIFY_SOURCE; rwatch's C is two small shims, the Swift runtime
#     linked in is built without it upstream, and Swift checks bounds itself.
LINTIAN_KEEP := spelling-error-in-binary,hardening-no-fortify-functions
dist-check: dist
	lintian --fail-on error,warning,info --display-info --suppress-tags $(LINTIAN_KEEP) \
	    dist/rwatch_$(VERSION)_*.deb dist/rwatch-dbgsym_$(VERSION)_*.deb dist/rwatch-watchman_$(VERSION)_all.deb
	Packaging/dist-check.sh $(VERSION) dist $(SCRATCH)/dist-check

clean:
	rm -rf .build .build-*
