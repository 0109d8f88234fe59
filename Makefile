# SPDX-License-Identifier: GPL-2.0-or-later
# xgtop: plain GNU make. Optional parts (Xen, libpfm4, libmicrohttpd) are
# found with pkg-config / a header probe and compile out when absent.

# A bare `make` builds the program, whatever rule comes first below.
.DEFAULT_GOAL := all

PREFIX  ?= /usr/local
CC      ?= cc
BUILD   := build
BIN     := xgtop
PKG     := pkg-config

CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude -MMD -MP
ifneq ($(CI),)
CFLAGS  += -Werror
endif

# Instrumented builds keep their own directory and binary, so they never
# clobber the normal build. SANITIZE=1: AddressSanitizer + UBSan in
# build/san (`make SANITIZE=1 test` runs the suites on it); FUZZ=1: clang
# with libFuzzer's instrumentation in build/fuzz, for tests/fuzz.
ifneq ($(SANITIZE),)
BUILD   := build/san
BIN     := $(BUILD)/xgtop
# gcc's -Wmaybe-uninitialized misfires on instrumented code. clang has no
# such warning and rejects the flag, so lint leaves GCC_ONLY out.
GCC_ONLY := -Wno-maybe-uninitialized
CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	   $(GCC_ONLY)
LDFLAGS += -fsanitize=address,undefined
endif
ifneq ($(FUZZ),)
BUILD   := build/fuzz
BIN     := $(BUILD)/xgtop
CC      := clang
CFLAGS  += -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	   -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
endif

# -ldl: dlopen (src/core/dynlib.c) is in libdl before glibc 2.34 (the
# portable build's 2.17); on a newer glibc libdl.a is empty.
LDLIBS  := -lm -pthread -ldl

# Required: ncursesw and zlib.
CFLAGS  += $(shell $(PKG) --cflags ncursesw zlib)
LDLIBS  += $(shell $(PKG) --libs ncursesw zlib)

# The optional libraries below are not linked into xgtop: the code that
# needs them loads them (src/core/dynlib.c) by the soname of the library
# found here, so a command that does not use them starts without them.
# $(call SONAME,xenctrl) is "libxenctrl.so.4.17". PROBE_CC finds the
# optional libraries: a cross build (make portable) probes with the host's
# compiler, whose libraries are the ones loaded at run time.
PROBE_CC ?= $(CC)
SONAME   = $(or $(shell readelf -d "$$($(PROBE_CC) -print-file-name=lib$(1).so)" 2>/dev/null | \
	     sed -n 's/.*soname: \[\(.*\)\]/\1/p'),lib$(1).so)

# Optional: Xen tools libraries (libxenctrl, libxenstore ...), loaded when the
# Xen source opens (src/xen/xen_api.c). Tools that call Xen link them.
ifeq ($(shell $(PKG) --exists xenstat xencontrol && echo y),y)
XEN_PC  := xencontrol xenstore xenevtchn xenforeignmemory
CFLAGS  += -DHAVE_XEN $(shell $(PKG) --cflags $(XEN_PC))
XEN_LIBS := $(shell $(PKG) --libs $(XEN_PC))
# One build per Xen minor: libxenctrl's soname (libxenctrl.so.4.17) names
# the one Xen this binary is for (src/xen/xen_version.c: what the Xen
# source loads, checks the library and the hypervisor against, and what
# --version says), and XEN_CTRL_VERNODE is the symbol version that
# library defines (VERS_4.17.0), which a libxenctrl of another Xen lacks.
XEN_CTRL_SO := $(call SONAME,xenctrl)
XEN_CTRL_VERNODE := $(shell readelf -V "$$($(PROBE_CC) -print-file-name=libxenctrl.so)" 2>/dev/null | \
	sed -n '/\.gnu\.version_d/,/\.gnu\.version_r/s/.*Flags: none .*Name: \(VERS_[0-9.]*\)$$/\1/p' | tail -n 1)
# The headers must be of that Xen too: those of another Xen in front of
# the library (a /usr/local install) would lay the structures out wrong.
XEN_HDR_VER := $(shell $(PKG) --modversion xencontrol 2>/dev/null | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
ifneq ($(XEN_HDR_VER),)
ifneq ($(XEN_CTRL_SO),libxenctrl.so.$(XEN_HDR_VER))
$(error the Xen headers are Xen $(XEN_HDR_VER)'s (pkg-config xencontrol) but the libxenctrl $(PROBE_CC) finds is $(XEN_CTRL_SO): point PKG_CONFIG_PATH and the library path at one Xen)
endif
endif
# Checked against 4.17's and 4.20's headers (src/xen/xen_version.c): a
# build for another Xen compiles, but its Xen source refuses to start.
ifeq ($(filter libxenctrl.so.4.17 libxenctrl.so.4.20,$(XEN_CTRL_SO)),)
$(warning xgtop's Xen structures are checked against Xen 4.17 and 4.20 only; this build (Xen tools library $(XEN_CTRL_SO)) will refuse to monitor Xen)
endif
XEN_SO_CFLAGS := -DXEN_SO_CTRL='"$(XEN_CTRL_SO)"' -DXEN_CTRL_VERNODE='"$(XEN_CTRL_VERNODE)"' \
	-DXEN_SO_STORE='"$(call SONAME,xenstore)"' -DXEN_SO_EVTCHN='"$(call SONAME,xenevtchn)"' \
	-DXEN_SO_FMEM='"$(call SONAME,xenforeignmemory)"'
$(BUILD)/obj/xen/xen_api.o $(BUILD)/obj/xen/xen_version.o: CFLAGS += $(XEN_SO_CFLAGS)
HAVE_XEN := 1
endif
# Optional: libpfm4 (no .pc file in Debian; probe the header).
ifeq ($(shell echo 'int main(void){return pfm_initialize();}' | $(PROBE_CC) -x c -include perfmon/pfmlib_perf_event.h - -lpfm -o /dev/null 2>/dev/null && echo y),y)
CFLAGS  += -DHAVE_PFM
PFM_SO_CFLAGS := -DPFM_SO='"$(call SONAME,pfm)"'
$(BUILD)/obj/pmu/pmu_events.o: CFLAGS += $(PFM_SO_CFLAGS)
endif
# Optional: libmicrohttpd for the Prometheus exporter.
ifeq ($(shell $(PKG) --exists libmicrohttpd && echo y),y)
CFLAGS  += -DHAVE_MHD $(shell $(PKG) --cflags libmicrohttpd)
MHD_SO_CFLAGS := -DMHD_SO='"$(call SONAME,microhttpd)"'
$(BUILD)/obj/exporter/expo_http.o: CFLAGS += $(MHD_SO_CFLAGS)
# GnuTLS (libmicrohttpd's TLS): the exporter checks a client certificate
# with it, loaded by soname like libmicrohttpd, which loaded it already.
ifeq ($(shell $(PKG) --exists gnutls && echo y),y)
MHD_SO_CFLAGS += -DHAVE_GNUTLS -DGNUTLS_SO='"$(call SONAME,gnutls)"' $(shell $(PKG) --cflags gnutls)
endif
endif
# Optional: libyaml and libcrypt (libxcrypt: bcrypt) for --web-config,
# loaded by soname when a file is given.
ifeq ($(shell $(PKG) --exists yaml-0.1 && echo y),y)
WEBCFG_SO_CFLAGS := -DHAVE_YAML -DYAML_SO='"$(call SONAME,yaml)"' $(shell $(PKG) --cflags yaml-0.1)
$(BUILD)/obj/exporter/webcfg.o: CFLAGS += $(WEBCFG_SO_CFLAGS)
endif
# Optional: libcurl for the pool view's HTTP client, loaded by soname when
# the pool view opens.
ifeq ($(shell $(PKG) --exists libcurl && echo y),y)
CURL_SO_CFLAGS := -DHAVE_CURL -DCURL_SO='"$(call SONAME,curl)"' $(shell $(PKG) --cflags libcurl)
$(BUILD)/obj/remote/remote_http.o: CFLAGS += $(CURL_SO_CFLAGS)
endif
# Optional: cJSON for the Prometheus source's query answers, loaded by
# soname when that source opens (bench/json_parse.sh: the fastest of
# Debian's JSON libraries on a 10 MB answer).
ifeq ($(shell $(PKG) --exists libcjson && echo y),y)
CJSON_SO_CFLAGS := -DHAVE_CJSON -DCJSON_SO='"$(call SONAME,cjson)"'
$(BUILD)/obj/remote/remote_qapi.o: CFLAGS += $(CJSON_SO_CFLAGS)
endif
CRYPT_SO_CFLAGS := -DCRYPT_SO='"$(call SONAME,crypt)"'
# Optional: BPF for the Linux source's wait attribution (BEHIND, WAIT-P50):
# clang compiles src/linux/linux_waits.bpf.c for the BPF target against
# libbpf's headers, the object is embedded in linux_waits.o, and libbpf is
# loaded by soname when the Linux source opens (CO-RE: no kernel headers,
# the kernel's own BTF at run time).
BPF_CLANG ?= clang
ifeq ($(shell command -v $(BPF_CLANG) >/dev/null && [ -f /usr/include/bpf/bpf_helpers.h ] && \
	$(PROBE_CC) -print-file-name=libbpf.so | grep -q / && echo y),y)
BPF_OBJ := $(BUILD)/bpf/waits.bpf.o
BPF_SO_CFLAGS := -DHAVE_BPF -DBPF_SO='"$(call SONAME,bpf)"' -DLW_BPF_OBJ='"$(BPF_OBJ)"'
$(BUILD)/obj/linux/linux_waits.o: CFLAGS += $(BPF_SO_CFLAGS)
$(BUILD)/obj/linux/linux_waits.o: $(BPF_OBJ)
BPF_ARCH_INC := $(shell $(PROBE_CC) -print-multiarch 2>/dev/null)
$(BPF_OBJ): src/linux/linux_waits.bpf.c src/linux/waits_abi.h $(BUILD)/CFLAGS
	@mkdir -p $(@D)
	$(BPF_CLANG) -g -O2 -target bpf $(if $(BPF_ARCH_INC),-I/usr/include/$(BPF_ARCH_INC)) -Wall -Werror \
		-c -o $@ $<
endif
$(BUILD)/obj/exporter/expo_auth.o: CFLAGS += $(CRYPT_SO_CFLAGS)

# src/<stage>/*.c: one folder per pipeline stage (see src/README.md).
# (*.bpf.c: programs for the kernel's BPF machine, compiled by clang alone)
SRCS    := $(filter-out %.bpf.c,$(wildcard src/*/*.c))
OBJS    := $(SRCS:src/%.c=$(BUILD)/obj/%.o)
LIBOBJS := $(filter-out $(BUILD)/obj/app/main.o,$(OBJS))

# tests/unit/<stage>/ mirrors src/<stage>/; so do the binaries under build/tests.
UNIT_SRCS := $(wildcard tests/unit/*/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(BUILD)/tools/%)
# The benchmarks' own programs (bench/tools/) build beside the test tools.
BENCH_SRCS := $(wildcard bench/tools/*.c)
BENCH_BINS := $(BENCH_SRCS:bench/tools/%.c=$(BUILD)/tools/%)
CMOCKA    := $(shell $(PKG) --libs cmocka 2>/dev/null)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/%)
REPLAY_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)

# The flags a build used are tracked as git's Makefile does (GIT-CFLAGS):
# every object depends on $(BUILD)/CFLAGS, which holds the compiler and its
# flags, and everything linked also on $(BUILD)/LDFLAGS. Make runs their
# recipes every time (FORCE), but a file is rewritten only when its content
# changes, so its date moves, and what depends on it is rebuilt, exactly
# when CC, CPPFLAGS, CFLAGS, LDFLAGS or the optional libraries found (their
# HAVE_* and sonames) change: installing libmicrohttpd-dev after a first
# `make` gives an xgtop with the exporter at the next `make`. SANITIZE and
# FUZZ change the flags too, and have their own directories and files.
# The per-object flags (sonames) are listed here because a target-specific
# CFLAGS is not seen outside its target; := takes everything as it is now,
# whichever target asks for the file first.
TRACK_CFLAGS  := $(CC) | $(CPPFLAGS) $(CFLAGS) | $(XEN_SO_CFLAGS) $(PFM_SO_CFLAGS) $(MHD_SO_CFLAGS) \
		 $(WEBCFG_SO_CFLAGS) $(CRYPT_SO_CFLAGS) $(CURL_SO_CFLAGS) \
		 $(CJSON_SO_CFLAGS) $(BPF_SO_CFLAGS)
TRACK_LDFLAGS := $(CC) | $(LDFLAGS) | $(LDLIBS) | $(XEN_LIBS) | $(CMOCKA)
# $(call WRITE_FLAGS,CONTENT): the recipe that writes CONTENT to $@ when it
# differs from what $@ holds, and leaves $@ alone (its date too) otherwise.
WRITE_FLAGS = @mkdir -p $(@D); new='$(subst ','\'',$(1))'; \
	if [ "$$new" != "$$(cat $@ 2>/dev/null)" ]; then \
		echo "$@: new build flags, rebuilding what they affect"; \
		printf '%s\n' "$$new" >$@; \
	fi

.PHONY: all man run test lint check test-unit test-xen test-pmu test-valgrind bench fuzz fuzz-ci \
	fuzz-bins soak mutate install deps deb rpm portable clean tools FORCE

all: $(BIN)

$(BUILD)/CFLAGS: FORCE
	$(call WRITE_FLAGS,$(TRACK_CFLAGS))

$(BUILD)/LDFLAGS: FORCE
	$(call WRITE_FLAGS,$(TRACK_LDFLAGS))

FORCE:

$(BIN): $(OBJS) $(BUILD)/LDFLAGS
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/obj/%.o: src/%.c $(BUILD)/CFLAGS
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD) $(BUILD)/tests $(BUILD)/tools:
	mkdir -p $@

# Tests and tools link against an archive, so each pulls in only the
# modules it uses.
$(BUILD)/libxgtop.a: $(LIBOBJS)
	rm -f $@
	ar rcs $@ $^

# Each unit test, tool and harness is compiled and linked in one step, so
# it depends on both flags files.
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libxgtop.a $(BUILD)/CFLAGS $(BUILD)/LDFLAGS
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libxgtop.a $(LDLIBS) $(CMOCKA)

$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/libxgtop.a $(BUILD)/CFLAGS $(BUILD)/LDFLAGS | $(BUILD)/tools
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libxgtop.a $(LDLIBS) $(XEN_LIBS)

$(BUILD)/tools/%: bench/tools/%.c $(BUILD)/libxgtop.a $(BUILD)/CFLAGS $(BUILD)/LDFLAGS | $(BUILD)/tools
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libxgtop.a $(LDLIBS) $(XEN_LIBS)

# The PMU tests count this workload's page faults: a sanitizer's own (its
# shadow memory) would swamp them, so it is built without one.
$(BUILD)/tools/xgtop-pmu-work: tests/tools/xgtop-pmu-work.c $(BUILD)/CFLAGS | $(BUILD)/tools
	$(CC) $(filter-out -fsanitize=%,$(CFLAGS)) -o $@ $< -pthread

tools: $(TOOL_BINS) $(BENCH_BINS)

# libFuzzer harnesses (with FUZZ=1): each links the parsers it calls.
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(BUILD)/libxgtop.a $(BUILD)/CFLAGS $(BUILD)/LDFLAGS
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(BUILD)/libxgtop.a $(LDLIBS)

fuzz-bins: $(FUZZ_BINS)

# The same harnesses without libFuzzer, for tests/fuzz/test_regress.sh.
$(BUILD)/fuzz-replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h $(BUILD)/libxgtop.a \
		$(BUILD)/CFLAGS $(BUILD)/LDFLAGS
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay.c $(BUILD)/libxgtop.a $(LDLIBS)

# Installs what is missing (as root), builds, and starts the monitor on
# this host. The build runs in a sub-make so it sees freshly installed
# libraries.
run:
	@contrib/install-deps.sh
	@$(MAKE) --no-print-directory xgtop
	./xgtop

# Every test: unit (cmocka), then the scripted suites (TUI in tmux, Linux
# source on real processes, trace oracle ...). The last line is the count.
test:
	@contrib/install-deps.sh
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory check

# clang's warnings (-Werror) on every source: gcc alone misses some that the
# clang-built fuzz harnesses would only hit late in CI (an unused static
# inline function, for one).
lint:
	@command -v clang >/dev/null || { echo "lint: clang not installed (make deps)"; exit 1; }
	@for f in $(SRCS) $(UNIT_SRCS) $(TOOL_SRCS) $(BENCH_SRCS) $(FUZZ_SRCS); do \
	  clang -fsyntax-only $(filter-out -O2 -g -MMD -MP $(GCC_ONLY),$(CFLAGS)) -Werror -Isrc $$f || exit 1; \
	done; echo "lint: clang -Wall -Wextra clean on $(words $(SRCS) $(UNIT_SRCS) $(TOOL_SRCS) $(BENCH_SRCS) $(FUZZ_SRCS)) files"

# With SANITIZE=1 the suites run on the instrumented build (tests/san.sh
# says which, and fails on any sanitizer report).
check: $(BIN) $(UNIT_BINS) $(TOOL_BINS) $(REPLAY_BINS)
	@$(if $(SANITIZE),tests/san.sh $(BUILD),tests/run.sh)

test-unit: $(UNIT_BINS)
	@tests/run.sh unit

# Boots Xen + dom0 + domUs under QEMU and checks xgtop there (issue: Xen source).
# The script installs its packages (as root) and builds what it tests itself,
# so that a tree built before libxen-dev was installed gets rebuilt.
# XEN=4.17 (default): Debian 12's Xen; XEN=4.20: Debian 13's, from a
# debootstrap'd trixie root in which xgtop is built (tests/xen/trixie-root.sh)
# and the Debian 13 package is tested (tests/xen/deb-trixie.sh).
# XGLAB_SUITE=dom0: the dom0 suite only (CI's second lab; tests/xen/run.sh).
XEN ?= 4.17
test-xen:
	@XGLAB_XEN=$(XEN) tests/xen/run.sh

test-pmu: xgtop $(TOOL_BINS)
	@tests/run.sh pmu

bench: xgtop $(TOOL_BINS) $(BENCH_BINS)
	@bench/run.sh

# The full-screen view's tests once more with xgtop under valgrind.
test-valgrind: xgtop $(TOOL_BINS)
	@tests/valgrind.sh

# bench/soak.sh: 2,000 domains with churn at 10 refreshes a second in the
# full-screen view, recording and exporting, for SOAK_SECONDS (default 600;
# CI runs 60).
soak: xgtop $(TOOL_BINS) $(BENCH_BINS)
	@bench/soak.sh

# tests/mutate.sh: small deliberate bugs, one at a time, each must fail a test.
mutate: xgtop $(TOOL_BINS) $(UNIT_BINS)
	@tests/mutate.sh

# Fuzzes every parser of outside input: FUZZ_SECONDS each (default 60);
# fuzz-ci shares FUZZ_BUDGET seconds (default 200) among the harnesses.
fuzz: xgtop $(TOOL_BINS)
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-bins
	@tests/fuzz/run.sh

fuzz-ci: xgtop $(TOOL_BINS)
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-bins
	@FUZZ_BUDGET=$${FUZZ_BUDGET:-200} tests/fuzz/run.sh

# The man page's COLUMNS section is generated from the column table.
man: man/xgtop.1

man/xgtop.1: man/xgtop.1.in xgtop contrib/man-columns.sh
	contrib/man-columns.sh ./xgtop > $(BUILD)/columns.man
	sed -e 's/@VERSION@/$(shell sed -n 's/.*XG_VERSION "\(.*\)"/\1/p' include/xgtop/core/common.h)/' \
	    -e '/^\.\\" BEGIN COLUMNS/r $(BUILD)/columns.man' $< > $@

install: xgtop
	install -D -m 0755 xgtop $(DESTDIR)$(PREFIX)/bin/xgtop
	install -D -m 0644 man/xgtop.1 $(DESTDIR)$(PREFIX)/share/man/man1/xgtop.1
	install -D -m 0644 contrib/xgtop.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/xgtop

# Debian package, built in a copy of the tree under $(BUILD)/deb so the work
# tree stays clean; the .deb lands in $(BUILD)/deb/.
deb:
	@contrib/build-deb.sh $(BUILD)/deb

# RPM and source RPM from contrib/rpm/xgtop.spec, in $(BUILD)/rpm (rpmbuild
# --nodeps: the spec's BuildRequires are Fedora's and XCP-ng's names, not
# Debian's). PORTABLE=1: a binary RPM of the portable build's binary
# instead (glibc 2.17 or later, for XCP-ng 8 and XenServer 8).
rpm:
	@PORTABLE=$(PORTABLE) contrib/rpm/build.sh $(BUILD)/rpm

# A tarball whose binary runs on glibc 2.17 or later (XCP-ng, XenServer,
# CentOS 7 era): built with a glibc 2.17 cross toolchain, ncursesw and zlib
# linked in, in build/portable (see contrib/portable/build.sh).
portable:
	@contrib/portable/build.sh

# Debian packages to build and test (idempotent; run as root).
deps:
	@contrib/install-deps.sh

clean:
	rm -rf $(BUILD) $(BIN)

-include $(OBJS:.o=.d)
