# Build and test hash-authenticated kernel modules on Debian's Linux 6.12.
#
#   make            install missing packages, unpack and patch the kernel,
#                   build the `hashes` kernel (the allowlist, no signing
#                   key) and the test initramfs, boot it and show an
#                   allowlisted module, a tampered one and a foreign one
#                   (about 8 min on 2 cores; one progress line per step)
#   make kernels    every config variant (sig nosig hashes hashes+sig btf
#                   hashes+sigforce hashes-untrusted-ima debug)
#   make check      what CI runs: the allowlist variants (hashes,
#                   hashes+sig) and every security-relevant test; ends
#                   with "N passed, N failed" (at most 45 min, see NOTES)
#   make check-full everything else too: sig, nosig, btf, hashes+sigforce,
#                   hashes-untrusted-ima and the pristine (unpatched)
#                   builds, the golden file of pristine verdicts compared,
#                   secure boot (at most 120 min cold, see README)
#   make check-debug the debug kernel (KASAN, lockdep, kmemleak): the
#                   verdict matrix, concurrency, KUnit, the hash count
#   make check-series each patch of the series compiled on its own
#   make check-mutations each security fix undone: its tests must fail
#   make repro      build hashes, hashes+sig and btf from scratch, build
#                   them and sig a second time elsewhere, compare byte for
#                   byte, boot
#   make bench      what the allowlist costs (size, time) for this build's
#                   modules and for Debian's 4230, a module load in the
#                   guest with each check, and every kernel's figures,
#                   judged against tests/bench/goals.tsv (build/bench/)
#   make bench-record  copy the last bench run to tests/bench/results/
#   make distro-rootfs  the Debian 12 root file system of the distro tests
#                   (mmdebstrap; build/distro/rootfs.tar, kept until its
#                   inputs change)
#   make clean      remove build/
#
# Paths (see README.md): build/src/{pristine,patched} are the source trees,
# build/src/<tree>/obj-<variant> the kbuild output directories and
# build/out/<name> the published kernels, where <name> is a variant for
# the patched tree and pristine-<variant> for the unpatched one.  Long
# steps write their output to build/log/ and say so.

SHELL := /bin/bash
.DELETE_ON_ERROR:
.SUFFIXES:

B := $(CURDIR)/build
SRC := $(B)/src
OUT := $(B)/out
TOOLS := $(B)/tools
TARBALL ?= /usr/src/linux-source-6.12.tar.xz

VARIANTS := sig nosig hashes hashes+sig btf hashes+sigforce hashes-untrusted-ima debug
PRISTINE_VARIANTS := sig nosig
# The kernels "make check" tests: those that carry the allowlist (btf, the
# same with debug information and BTF, is left to check-full).
CHECK_VARIANTS := hashes hashes+sig
# make check-full's: every variant but debug, which has a target of its
# own (check-debug) to keep check-full within 120 minutes.
FULL_VARIANTS := $(filter-out debug,$(VARIANTS))
# The kernel the first "make" builds and shows.
DEMO_VARIANT := hashes
PATCHES := $(addprefix kernel/patches/,$(shell cat kernel/patches/series))

# Kernels compile with plain gcc.  Builds through ccache (4.7.5, Debian
# 12) failed now and then on a fresh machine with "fixdep: error opening
# file: .../.tty_mutex.o.d" (2 of 3 tries of one variant, issue 30): the
# dependency file kbuild asks for with -Wp,-MMD was missing after the
# compile; why ccache did not write it was not pinned down.  A cold CI
# build gains nothing from ccache, and an
# incremental build after a patch change recompiles only the files the
# patches touch (kernel/build/make-tree.sh keeps the others' mtimes), so
# ccache is left out rather than worked around.  KERNEL_CC="ccache gcc"
# still works for those who want it; the variants whose builds must be
# reproducible always compile with plain gcc: tests/repro compares them
# byte for byte with a second build from scratch.
KERNEL_CC ?= gcc
export KERNEL_CC
REPRO_VARIANTS := hashes hashes+sig btf

# Debian packages the build, the tools and the tests need.
PACKAGES := linux-source-6.12 build-essential bc bison flex perl patch \
	libssl-dev libelf-dev openssl dwarves kmod busybox-static \
	qemu-system-x86 ima-evm-utils keyutils xz-utils zstd cpio gzip \
	ccache libcmocka-dev libtss2-dev \
	liblzma-dev libzstd-dev zlib1g-dev liblz4-dev libbz2-dev libjson-c-dev libimaevm-dev \
	clang swtpm swtpm-tools tpm2-tools ovmf sbsigntool systemd-boot-efi \
	lz4 bzip2 xxd python3 \
	pkgconf dpkg-dev debhelper lintian bash-completion git \
	linux-config-6.12 rsync mmdebstrap e2fsprogs

HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2

# Test knobs (tests/lib/knobs.sh derives the list from the sources) set in
# the environment: under CI=true they stop the run, since each shrinks or
# redirects what the tests check; otherwise tests/run-all.sh names them on
# its closing line.
KNOBS_SET := $(shell tests/lib/knobs.sh --set | tr '\n' ' ')
ifeq ($(CI),true)
ifneq ($(strip $(KNOBS_SET)),)
$(error CI=true, but test knobs are set in the environment: $(KNOBS_SET)(unset them; tests/lib/knobs.sh lists every knob))
endif
endif
export TEST_KNOBS_SET := $(strip $(KNOBS_SET))

# Long steps run through step.sh: a line when they start (with how long
# they usually take and where their log is), one a minute, one at the end.
LOG := $(B)/log
STEP := kernel/build/step.sh
# The numbered steps of a first "make"; other steps are marked [+].
label = $(or $(label-$(1)),[+])
label-deps := [1/5]
label-tree := [2/5]
label-$(DEMO_VARIANT) := [3/5]
label-initramfs := [4/5]
label-demo := [5/5]

# The build directory of a published kernel name.
objdir = $(if $(filter pristine-%,$(1)),$(SRC)/pristine/obj-$(1:pristine-%=%),$(SRC)/patched/obj-$(1))

.PHONY: all distro check-distro repro-distro check check-full check-debug check-series check-mutations repro bench bench-record kernels pristine-kernels initramfs tools install uninstall fuzz deps demo distro-rootfs clean

all: $(B)/demo.txt
	@echo "The demo's output is kept in $(B)/demo.txt; next steps: README.md."

deps: $(B)/deps.stamp

$(B)/deps.stamp: Makefile kernel/build/install-deps.sh
	@mkdir -p $(LOG)
	@LOG_DIR=$(LOG) kernel/build/install-deps.sh "$(call label,deps) packages" $(PACKAGES)
	@touch $@

# --- source trees -----------------------------------------------------

# The tarball comes with the linux-source-6.12 package.
$(TARBALL): | $(B)/deps.stamp

$(SRC)/pristine.stamp: $(TARBALL)
	@rm -rf $(SRC)/unpack.tmp && mkdir -p $(SRC)/unpack.tmp
	@$(STEP) "$(call label,tree) source: unpacking $(notdir $(TARBALL))" "30 s" $(LOG)/unpack.log \
		sh -c 'tar -xf $(TARBALL) -C $(SRC)/unpack.tmp --strip-components=1 && \
			kernel/build/make-tree.sh $(SRC)/unpack.tmp $(SRC)/pristine'
	@rm -rf $(SRC)/unpack.tmp
	@touch $@

$(SRC)/patched.stamp: $(SRC)/pristine.stamp kernel/patches/series $(PATCHES)
	@$(STEP) "$(call label,tree) source: applying the $(words $(PATCHES)) patches of kernel/patches/series" "10 s" \
		$(LOG)/patch.log kernel/build/make-tree.sh $(SRC)/pristine $(SRC)/patched $(PATCHES)
	@touch $@

# --- kernels ----------------------------------------------------------

kernels: $(VARIANTS:%=$(OUT)/%/bzImage)
pristine-kernels: $(PRISTINE_VARIANTS:%=$(OUT)/pristine-%/bzImage)

# How long a cold build of each takes here (NOTES.md, measured figures).
estimate = $(or $(estimate-$(1)),6 min on 2 cores)$(if $(filter ccache%,$(KERNEL_CC)),$(comma) less with a warm ccache)
estimate-btf := 8 min on 2 cores
estimate-debug := 14 min on 2 cores
estimate-hashes+sig := 8 min on 2 cores
estimate-hashes+sigforce := 8 min on 2 cores
comma := ,

$(OUT)/pristine-%/bzImage: $(SRC)/pristine.stamp kernel/configs/base.config kernel/configs/%.config
	@$(STEP) "[+] kernel pristine-$*: compiling bzImage and modules ($(KERNEL_CC))" "$(call estimate,$*)" \
		$(LOG)/kernel-pristine-$*.log kernel/build/build-kernel.sh $(SRC)/pristine $* $(OUT)/pristine-$*

$(OUT)/%/bzImage: $(SRC)/patched.stamp kernel/configs/base.config kernel/configs/%.config
	@$(STEP) "$(call label,$*) kernel $*: compiling bzImage and modules ($(KERNEL_CC))" "$(call estimate,$*)" \
		$(LOG)/kernel-$*.log kernel/build/build-kernel.sh $(SRC)/patched $* $(OUT)/$*

# Fragments a variant extends (kernel/build/fragments.sh)
$(OUT)/btf/bzImage: kernel/configs/hashes.config
$(OUT)/hashes+sigforce/bzImage: kernel/configs/hashes+sig.config
$(OUT)/hashes-untrusted-ima/bzImage: kernel/configs/hashes.config
# The certificate hashes+sig trusts (CONFIG_SYSTEM_TRUSTED_KEYS, configure.sh)
$(OUT)/hashes+sig/bzImage $(OUT)/hashes+sigforce/bzImage: tests/keys/dkms-test-cert.pem

$(REPRO_VARIANTS:%=$(OUT)/%/bzImage): KERNEL_CC := gcc

# The distro kernel (issue 32): Debian's 6.12 configuration with the
# allowlist and a reduced module set, built as Debian packages
# (kernel/build/build-distro.sh).  Always plain gcc: tests compare two
# builds of it byte for byte.
DISTRO := $(OUT)/distro
DISTRO_INPUTS := kernel/configs/distro.config kernel/configs/distro-modules.txt \
	kernel/configs/distro-guest.lsmod kernel/build/configure-distro.sh \
	kernel/build/build-distro.sh kernel/build/kmake.sh tests/keys/dkms-test-cert.pem

distro: $(DISTRO)/kernelrelease

# The distro kernel's tests: its packages (suite distro-packages) and a
# Debian 12 system booted from them (suite distro); and its packages
# built a second time elsewhere and compared byte for byte.
check-distro: $(DISTRO)/kernelrelease tools
	tests/run-all.sh $(B) distro-packages distro

repro-distro: $(DISTRO)/kernelrelease
	tests/run-all.sh $(B) repro-distro

$(DISTRO)/kernelrelease: KERNEL_CC := gcc
$(DISTRO)/kernelrelease: $(SRC)/patched.stamp $(DISTRO_INPUTS) | $(B)/deps.stamp
	@$(STEP) "[+] kernel distro: Debian's 6.12 configuration with the allowlist, as .deb packages (gcc)" \
		"45 min on 2 cores" $(LOG)/kernel-distro.log kernel/build/build-distro.sh $(SRC)/patched $(DISTRO)

# --- tools and initramfs ----------------------------------------------

MODLOAD_SRC := initramfs/modload/modload.c initramfs/modload/modload_lib.c

tools: $(TOOLS)/modload $(TOOLS)/module-hashes $(TOOLS)/modhash/modhash

# modhash (tools/), built against the patched tree's format header.  Its
# own Makefile knows its sources; make -C decides what is out of date.
# The project builds it with -Werror (WERROR=1; a packager's build does
# not), and its unit tests (target tests) next to it for tools-unit.
MODHASH := $(TOOLS)/modhash
MODHASH_MAKE = $(MAKE) -s -C tools O=$(MODHASH) WERROR=1 \
	UAPI_HEADER=$(SRC)/patched/include/uapi/linux/module_hashes.h

.PHONY: $(MODHASH)/modhash
$(MODHASH)/modhash: $(SRC)/patched.stamp
	@echo "[+] tools: modhash and its unit tests"
	@$(MODHASH_MAKE) all tests

# make install DESTDIR=... PREFIX=...: modhash, its man pages and its bash
# completion; make uninstall with the same variables removes them.
install: $(MODHASH)/modhash
	@$(MODHASH_MAKE) install DESTDIR=$(DESTDIR) PREFIX=$(or $(PREFIX),/usr/local)

uninstall:
	@$(MODHASH_MAKE) uninstall DESTDIR=$(DESTDIR) PREFIX=$(or $(PREFIX),/usr/local)

# libFuzzer runs of the parsers, FUZZ_SECONDS each (make check runs them
# for a few seconds as the suite tools-fuzz).
fuzz: $(SRC)/patched.stamp
	@$(MODHASH_MAKE) fuzz FUZZ_SECONDS=$(or $(FUZZ_SECONDS),300)

# The allowlist generator, built from the very source the series adds: there
# is one copy of it and of the format header, in kernel/patches.
$(TOOLS)/module-hashes: $(SRC)/patched.stamp
	@mkdir -p $(TOOLS)
	@echo "[+] tools: module-hashes (the series' allowlist generator)"
	@gcc $(HOST_CFLAGS) -o $@ $(SRC)/patched/scripts/module-hashes.c -lcrypto -lpthread

$(TOOLS)/modload: $(MODLOAD_SRC) initramfs/modload/modload_lib.h | $(B)/deps.stamp
	@mkdir -p $(TOOLS)
	@gcc $(HOST_CFLAGS) -static -o $@ $(MODLOAD_SRC)

$(TOOLS)/test_modload: initramfs/modload/test_modload.c initramfs/modload/modload_lib.c initramfs/modload/modload_lib.h | $(B)/deps.stamp
	@mkdir -p $(TOOLS)
	@gcc $(HOST_CFLAGS) -o $@ initramfs/modload/test_modload.c initramfs/modload/modload_lib.c -lcmocka

initramfs: $(B)/initramfs/base.cpio.gz $(VARIANTS:%=$(OUT)/%/modules.cpio.gz)

$(B)/initramfs/base.cpio.gz: $(TOOLS)/modload initramfs/init initramfs/vmtest.sh initramfs/build-base.sh initramfs/copy-program.sh initramfs/pack-cpio.sh $(wildcard ima-policy/*.policy)
	@mkdir -p $(@D)
	@$(STEP) "$(call label,initramfs) initramfs: busybox, kmod, keyctl, evmctl, tpm2-tools, modload" "10 s" \
		$(LOG)/initramfs-base.log initramfs/build-base.sh $(TOOLS)/modload $@

$(OUT)/%/modules.cpio.gz: $(OUT)/%/bzImage initramfs/build-modules.sh initramfs/pack-cpio.sh tests/modules/hello/hello.c \
		tests/keys/dkms-test-key.pem
	@$(STEP) "$(call label,$(if $(filter $(DEMO_VARIANT),$*),initramfs,$*)) initramfs: test modules of $*" "30 s" \
		$(LOG)/initramfs-$*.log initramfs/build-modules.sh $(OUT)/$* $(call objdir,$*)

# --- demo and tests ---------------------------------------------------

demo: $(B)/demo.txt

$(B)/demo.txt: $(OUT)/$(DEMO_VARIANT)/modules.cpio.gz $(B)/initramfs/base.cpio.gz tests/vm/demo.sh tests/vm/run-vm.sh
	@echo "$(call label,demo) demo: booting the $(DEMO_VARIANT) kernel under qemu, twice (about 1 min)"
	@tests/vm/demo.sh $(OUT)/$(DEMO_VARIANT) $(B)/initramfs/base.cpio.gz | tee $@.tmp
	@mv $@.tmp $@

# Everything the suites of a tier need (tests/run-all.sh says which
# suites each tier runs).
# (not the demo of "make": two boots that check nothing, a minute of
# CI's budget)
check: $(B)/initramfs/base.cpio.gz $(CHECK_VARIANTS:%=$(OUT)/%/modules.cpio.gz) tools $(TOOLS)/test_modload
	tests/run-all.sh $(B) check

check-full: all $(B)/initramfs/base.cpio.gz $(FULL_VARIANTS:%=$(OUT)/%/modules.cpio.gz) \
		tools $(TOOLS)/test_modload \
		$(PRISTINE_VARIANTS:%=$(OUT)/pristine-%/modules.cpio.gz)
	tests/run-all.sh $(B) full

# The debug kernel's suites (tests/run-all.sh, tier debug).
check-debug: $(B)/initramfs/base.cpio.gz $(OUT)/debug/modules.cpio.gz tools
	tests/run-all.sh $(B) debug

# Each patch compiled on its own for sig, nosig and hashes
# (tests/series/check-series.sh --build).
check-series: $(SRC)/pristine.stamp
	tests/run-all.sh $(B) series-build

# Undo each fix of NOTES.md's security review in a copy of the tree
# (tests/mutations/ROW.diff), rebuild, and require the row's tests to
# fail (tests/mutations/run-mutations.sh; time in README).
check-mutations: $(SRC)/pristine.stamp
	tests/run-all.sh $(B) mutations

# Build the reproducible variants from scratch, build them once more
# elsewhere and compare (tests/repro/check-repro.sh); sig for contrast.
repro: $(B)/initramfs/base.cpio.gz $(OUT)/sig/bzImage
	rm -rf $(REPRO_VARIANTS:%=$(SRC)/patched/obj-%) $(REPRO_VARIANTS:%=$(OUT)/%)
	$(MAKE) $(REPRO_VARIANTS:%=$(OUT)/%/bzImage)
	tests/run-all.sh $(B) repro repro-keys repro-hashes+sig repro-sig repro-btf

# Measurements (tests/bench), written to build/bench/*.md, each table
# after a block that records its commit, date, machine and command
# (tests/bench/provenance.sh); summary.sh judges them against the goals
# of tests/bench/goals.tsv.  `make bench-record` copies the last run to
# tests/bench/results/, the files NOTES.md quotes (tests/docs/check-notes.sh
# holds NOTES to them).  Debian's own modules of the same 6.12 release
# come with apt-get download.
BENCH := $(B)/bench
BENCH_RESULTS := tests/bench/results
# bench_table NAME COMMAND: COMMAND's table after its provenance block, to
# $(BENCH)/NAME.md (nothing when COMMAND fails)
# The summary's hash-count row uses the suite's result only when it is of
# this commit and newer than the debug kernel it booted (summary.sh checks).
bench_table = tests/bench/provenance.sh "make bench" $(2) > $(BENCH)/$(1).md.tmp && \
	mv $(BENCH)/$(1).md.tmp $(BENCH)/$(1).md

bench: $(OUT)/hashes/bzImage $(OUT)/hashes+sig/bzImage $(TOOLS)/module-hashes $(BENCH)/debian/modules.order \
		$(B)/initramfs/base.cpio.gz $(foreach v,nosig sig hashes,$(OUT)/$(v)/modules.cpio.gz)
	$(call bench_table,build-step,tests/bench/build-step.sh $(TOOLS)/module-hashes \
		$(call objdir,hashes+sig)/scripts/sign-file $(BENCH)/debian)
	$(call bench_table,list-cost,tests/bench/list-cost.sh $(B) hashes \
		"Debian's $$(cat $(BENCH)/debian/package)=$(BENCH)/debian/modules.order")
	$(call bench_table,load-cost,tests/bench/load-cost.sh $(B))
	$(call bench_table,list-lookup,tests/bench/list-lookup.sh $(B))
	$(call bench_table,build-cost,tests/bench/build-cost.sh $(B))
	$(call bench_table,figures,tests/bench/figures.sh $(B))
	$(call bench_table,summary,tests/bench/summary.sh $(BENCH) $(B)/test-results/hash-count.tap $(OUT)/debug/bzImage)
	@cat $(BENCH)/build-step.md $(BENCH)/list-cost.md $(BENCH)/load-cost.md $(BENCH)/list-lookup.md \
		$(BENCH)/build-cost.md $(BENCH)/figures.md $(BENCH)/summary.md

# The last run's tables, to commit: only a run of a commit (no uncommitted
# changes), every table of one commit.
bench-record:
	@ls $(BENCH)/*.md > /dev/null 2>&1 || { echo "no results in $(BENCH): make bench first"; exit 1; }
	@if grep -L '^- commit: ' $(BENCH)/*.md | grep .; then echo "bench-record: those have no provenance block"; exit 1; fi
	@commits=$$(sed -n 's/^- commit: //p' $(BENCH)/*.md | sort -u); \
	if [[ $$(wc -l <<< "$$commits") != 1 || ! $$commits =~ ^[0-9a-f]{40}$$ ]]; then \
		echo "bench-record: the tables of $(BENCH) come from more than one commit or an uncommitted tree:"; \
		echo "$$commits"; exit 1; \
	fi
	rm -f $(BENCH_RESULTS)/*.md
	mkdir -p $(BENCH_RESULTS)
	cp $(BENCH)/*.md $(BENCH_RESULTS)/
	@echo "$(BENCH_RESULTS) holds the run of $$(sed -n 's/^- commit: //p' $(BENCH)/build-step.md); quote its tables in NOTES.md and commit both"

$(BENCH)/debian/modules.order: tests/bench/debian-modules.sh | $(B)/deps.stamp
	tests/bench/debian-modules.sh $(BENCH)/debian

# --- the Debian 12 system of the distro tests ---------------------------

# Its root file system, from Debian's packages; the script rebuilds it only
# when its inputs changed (tests/distro/make-rootfs.sh).
distro-rootfs: | $(B)/deps.stamp
	@tests/distro/make-rootfs.sh $(B)/distro/rootfs.tar

clean:
	rm -rf $(B)
