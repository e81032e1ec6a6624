# Build and test hash-authenticated kernel modules on Debian's Linux 6.12.
#
#   make          install missing packages, unpack and patch the kernel,
#                 build every variant and the tools, boot once and show
#                 which module loaded and which was refused
#   make check    everything above, the pristine (unpatched) builds, and
#                 all tests; ends with "N passed, N failed"
#   make repro    build hashes and btf from scratch, build them and sig a
#                 second time elsewhere, compare byte for byte, boot
#   make bench    what the allowlist costs (size, time) for this build's
#                 modules and for Debian's 4230, and every kernel's figures
#   make clean    remove build/
#
# Paths (see README.md): build/src/{pristine,patched} are the source trees,
# build/src/<tree>/obj-<variant> the kbuild output directories and
# build/out/<name> the published kernels, where <name> is a variant for
# the patched tree and pristine-<variant> for the unpatched one.

SHELL := /bin/bash
.DELETE_ON_ERROR:
.SUFFIXES:

B := $(CURDIR)/build
SRC := $(B)/src
OUT := $(B)/out
TOOLS := $(B)/tools
TARBALL ?= /usr/src/linux-source-6.12.tar.xz

VARIANTS := sig nosig hashes hashes+sig btf
PRISTINE_VARIANTS := sig nosig
PATCHES := $(addprefix kernel/patches/,$(shell cat kernel/patches/series))

# Ordinary builds go through ccache, but the variants whose builds must be
# reproducible compile for real: tests/repro compares them byte for byte
# with a second build from scratch, and ccache could hide a compiler that
# does not give the same bytes twice.
KERNEL_CC ?= ccache gcc
export KERNEL_CC
REPRO_VARIANTS := hashes btf

# Debian packages the build, the tools and the tests need.
PACKAGES := linux-source-6.12 build-essential bc bison flex perl patch \
	libssl-dev libelf-dev openssl dwarves kmod busybox-static \
	qemu-system-x86 ima-evm-utils keyutils xz-utils zstd cpio gzip \
	ccache libcmocka-dev

HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2

# The build directory of a published kernel name.
objdir = $(if $(filter pristine-%,$(1)),$(SRC)/pristine/obj-$(1:pristine-%=%),$(SRC)/patched/obj-$(1))

.PHONY: all check repro bench kernels pristine-kernels initramfs tools deps demo clean

all: kernels initramfs tools $(B)/demo.txt
	@cat $(B)/demo.txt

deps: $(B)/deps.stamp

$(B)/deps.stamp: Makefile
	@mkdir -p $(B)
	@missing=; for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@touch $@

# --- source trees -----------------------------------------------------

# The tarball comes with the linux-source-6.12 package.
$(TARBALL): | $(B)/deps.stamp

$(SRC)/pristine.stamp: $(TARBALL)
	rm -rf $(SRC)/unpack.tmp && mkdir -p $(SRC)/unpack.tmp
	tar -xf $(TARBALL) -C $(SRC)/unpack.tmp --strip-components=1
	kernel/build/make-tree.sh $(SRC)/unpack.tmp $(SRC)/pristine
	rm -rf $(SRC)/unpack.tmp
	touch $@

$(SRC)/patched.stamp: $(SRC)/pristine.stamp kernel/patches/series $(PATCHES)
	kernel/build/make-tree.sh $(SRC)/pristine $(SRC)/patched $(PATCHES)
	touch $@

# --- kernels ----------------------------------------------------------

kernels: $(VARIANTS:%=$(OUT)/%/bzImage)
pristine-kernels: $(PRISTINE_VARIANTS:%=$(OUT)/pristine-%/bzImage)

$(OUT)/pristine-%/bzImage: $(SRC)/pristine.stamp kernel/configs/base.config kernel/configs/%.config
	kernel/build/build-kernel.sh $(SRC)/pristine $* $(OUT)/pristine-$*

$(OUT)/%/bzImage: $(SRC)/patched.stamp kernel/configs/base.config kernel/configs/%.config
	kernel/build/build-kernel.sh $(SRC)/patched $* $(OUT)/$*

# Fragments a variant extends (kernel/build/fragments.sh)
$(OUT)/btf/bzImage: kernel/configs/hashes.config

$(REPRO_VARIANTS:%=$(OUT)/%/bzImage): KERNEL_CC := gcc

# --- tools and initramfs ----------------------------------------------

MODLOAD_SRC := initramfs/modload/modload.c initramfs/modload/modload_lib.c

tools: $(TOOLS)/modload $(TOOLS)/module-hashes

# The allowlist generator, built from the very source the series adds: there
# is one copy of it and of the format header, in kernel/patches.
$(TOOLS)/module-hashes: $(SRC)/patched.stamp
	@mkdir -p $(TOOLS)
	gcc $(HOST_CFLAGS) -idirafter $(SRC)/patched/include/uapi -o $@ \
		$(SRC)/patched/scripts/module-hashes.c -lcrypto -lpthread

$(TOOLS)/modload: $(MODLOAD_SRC) initramfs/modload/modload_lib.h | $(B)/deps.stamp
	@mkdir -p $(TOOLS)
	gcc $(HOST_CFLAGS) -static -o $@ $(MODLOAD_SRC)

$(TOOLS)/test_modload: initramfs/modload/test_modload.c initramfs/modload/modload_lib.c initramfs/modload/modload_lib.h | $(B)/deps.stamp
	@mkdir -p $(TOOLS)
	gcc $(HOST_CFLAGS) -o $@ initramfs/modload/test_modload.c initramfs/modload/modload_lib.c -lcmocka

initramfs: $(B)/initramfs/base.cpio.gz $(VARIANTS:%=$(OUT)/%/modules.cpio.gz)

$(B)/initramfs/base.cpio.gz: $(TOOLS)/modload initramfs/init initramfs/vmtest.sh initramfs/build-base.sh initramfs/copy-program.sh initramfs/pack-cpio.sh
	@mkdir -p $(@D)
	initramfs/build-base.sh $(TOOLS)/modload $@

$(OUT)/%/modules.cpio.gz: $(OUT)/%/bzImage initramfs/build-modules.sh initramfs/pack-cpio.sh tests/modules/hello/hello.c
	initramfs/build-modules.sh $(OUT)/$* $(call objdir,$*)

# --- demo and tests ---------------------------------------------------

$(B)/demo.txt: $(B)/initramfs/base.cpio.gz $(OUT)/sig/modules.cpio.gz tests/vm/demo.sh tests/vm/run-vm.sh
	tests/vm/demo.sh $(OUT)/sig $(B)/initramfs/base.cpio.gz > $@.tmp
	mv $@.tmp $@

check: all pristine-kernels $(PRISTINE_VARIANTS:%=$(OUT)/pristine-%/modules.cpio.gz) $(TOOLS)/test_modload
	tests/run-all.sh $(B)

# Build the reproducible variants from scratch, build them once more
# elsewhere and compare (tests/repro/check-repro.sh); sig for contrast.
repro: $(B)/initramfs/base.cpio.gz $(OUT)/sig/bzImage
	rm -rf $(REPRO_VARIANTS:%=$(SRC)/patched/obj-%) $(REPRO_VARIANTS:%=$(OUT)/%)
	$(MAKE) $(REPRO_VARIANTS:%=$(OUT)/%/bzImage)
	tests/run-all.sh $(B) repro repro-btf

# Measurements for NOTES.md (tests/bench), written to build/bench/*.md.
# Debian's own modules of the same 6.12 release come with apt-get download.
BENCH := $(B)/bench

bench: $(OUT)/hashes/bzImage $(BENCH)/debian/modules.order
	tests/bench/list-cost.sh $(B) hashes \
		"Debian's $$(cat $(BENCH)/debian/package)=$(BENCH)/debian/modules.order" \
		> $(BENCH)/list-cost.md.tmp
	mv $(BENCH)/list-cost.md.tmp $(BENCH)/list-cost.md
	tests/bench/figures.sh $(B) > $(BENCH)/figures.md.tmp
	mv $(BENCH)/figures.md.tmp $(BENCH)/figures.md
	@cat $(BENCH)/list-cost.md $(BENCH)/figures.md

$(BENCH)/debian/modules.order: tests/bench/debian-modules.sh | $(B)/deps.stamp
	tests/bench/debian-modules.sh $(BENCH)/debian

clean:
	rm -rf $(B)
