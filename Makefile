# SPDX-License-Identifier: GPL-2.0-only
#
# kabidiff: one non-recursive Makefile.
#
#   make                 build ./build/kabidiff
#   make check           install missing Debian packages, build, run all tests
#   make check-layers    check that each file includes only what its layer may
#   make deps            install the missing Debian packages only
#   make demo            Debian 6.1 -> 6.12, fetched from the archive, judged
#   make demo-fixtures   the planted-break fixture kernels, built and judged
#   make bench           time kabidiff against the reference tools
#   make fuzz            run the libFuzzer harnesses (tests/fuzz/README.md)
#   make install         install into $(DESTDIR)$(PREFIX)
#   make uninstall       remove what make install put there
#   make DEVELOPER=1     strict warnings, -Werror (what CI builds with)
#   make V=1             show the commands

VERSION		:= 0.1
PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
LIBEXECDIR	?= $(PREFIX)/libexec/kabidiff
DOCDIR		?= $(PREFIX)/share/doc/kabidiff
COMPLETIONDIR	?= $(PREFIX)/share/bash-completion/completions
INSTALL		?= install
PKG_CONFIG	?= pkg-config
PROVE		?= prove

O		:= build
ASAN_O		:= $(O)/asan

CFLAGS		?= -O2 -g
BASIC_CFLAGS	:= -std=gnu11 -D_GNU_SOURCE -Wall -Wformat=2 -MMD -MP \
		   -include abidiff/lib/banned.h \
		   -DKABIDIFF_VERSION='"$(VERSION)"' \
		   -DKABIDIFF_LIBEXECDIR='"$(LIBEXECDIR)"' \
		   $(shell $(PKG_CONFIG) --cflags jansson libdw libgit2 capstone libkmod libarchive \
			liblzma libpcre2-8 2>/dev/null)
LIBS		:= $(shell $(PKG_CONFIG) --libs jansson libdw libgit2 capstone libkmod libarchive \
			liblzma libpcre2-8 2>/dev/null)
TEST_LIBS	:= $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)
SANITIZE	:= -fsanitize=address,undefined -fno-omit-frame-pointer \
		   -fno-sanitize-recover=all

# The tests build with the strict warnings, so CI ("make check") does too.
ifneq ($(filter check test,$(MAKECMDGOALS)),)
DEVELOPER	?= 1
endif

# The warnings of git's config.mak.dev, less those our style does not need.
ifeq ($(DEVELOPER),1)
BASIC_CFLAGS	+= -Werror -Wextra -Wno-unused-parameter \
		   -Wno-missing-field-initializers -Wmissing-prototypes \
		   -Wstrict-prototypes -Wold-style-definition -Wshadow \
		   -Wpointer-arith -Wvla -Wdeclaration-after-statement \
		   -Wunused-function -Wwrite-strings
endif

ifneq ($(V),1)
QUIET_CC	= @echo '  CC      ' $@;
QUIET_LINK	= @echo '  LINK    ' $@;
Q		= @
endif

# Everything but the command line, by layer (docs/design.md): shared by the
# program, the tests and the fuzzers.
BASE_SRCS	:= $(addprefix abidiff/lib/,print.c array.c bytes.c fileio.c cleanup.c \
			atomic-file.c run-command.c) \
		   $(addprefix abidiff/model/,build-date.c jstr.c json-arena.c json-records.c model.c \
			snapshot-json.c)
ENGINE_SRCS	:= $(addprefix abidiff/match/,what-index.c what-normal.c sysfs-tree.c census-join.c \
			docmatch.c observed.c) \
		   $(addprefix abidiff/diff/,change.c diff.c sysfs.c syscalls.c vdso.c types.c census.c \
			docs.c) \
		   abidiff/policy/policy.c \
		   $(addprefix abidiff/notify/,maintainers.c notify.c) \
		   $(addprefix abidiff/report/,filter.c header.c text.c json.c markdown.c \
			ktap.c junit.c sarif.c notify.c format.c)
COLLECTOR_SRCS	:= $(addprefix collectors/abidocs/,parse.c sysctl.c collect.c git.c) \
		   $(addprefix collectors/sysfs/,sysfs-dir.c stream-reader.c machine.c modules.c \
			initramfs.c unpack.c boot.c) \
		   guest-agent/walk.c \
		   $(addprefix collectors/dwarf/,elf.c source-tree.c types.c) \
		   $(addprefix collectors/vmlinux/,kimage.c syscall-switch.c abi.c dispatch.c \
			tbl.c dwarf-args.c ftrace.c cross-check.c identity.c vmlinux.c) \
		   collectors/vdso/vdso.c \
		   collectors/bzimage/bzimage.c \
		   $(addprefix collectors/debian/,deb.c packages.c) \
		   $(addprefix collectors/census/,image.c types.c record.c scan.c census.c source.c)
LIB_SRCS	:= $(BASE_SRCS) $(ENGINE_SRCS) $(COLLECTOR_SRCS)
CLI_SRCS	:= abidiff/main.c \
		   $(addprefix abidiff/pipeline/,judge.c cache.c progress.c \
			debian.c census.c collect.c side.c bisect.c) \
		   $(addprefix abidiff/cli/,cli.c commands.c options.c output.c \
			diff-options.c collect-options.c observed.c) \
		   $(addprefix abidiff/builtin/,bisect.c check.c collect.c diff.c \
			docs.c show.c undocumented.c waivers.c)
UNIT_TESTS	:= test-bytes test-model test-snapshot-json test-what-index \
		   test-abidocs test-docmatch test-observed test-diff-types test-diff-layout \
		   test-diff-docs test-diff-sysfs test-print test-fileio \
		   test-vmlinux-oom test-vmlinux-compat test-policy \
		   test-syscall-switch test-vdso test-maintainers test-source-tree \
		   test-report-notify test-census test-sysctl-docs
# Programs the shell tests run, linked with the library.
TEST_TOOLS	:= switch-dump module-table maintainers-lookup census-dump

LIB_OBJS	:= $(LIB_SRCS:%.c=$(O)/%.o)
CLI_OBJS	:= $(CLI_SRCS:%.c=$(O)/%.o)
UNIT_BINS	:= $(UNIT_TESTS:%=$(O)/tests/unit/%) \
		   $(UNIT_TESTS:%=$(ASAN_O)/tests/unit/%)
TOOL_BINS	:= $(TEST_TOOLS:%=$(O)/tests/tools/%)

# Debian packages: what building, testing and running need.
DEB_PACKAGES	:= gcc make pkg-config libjansson-dev libdw-dev libelf-dev \
		   libgit2-dev libcapstone-dev libkmod-dev libarchive-dev liblzma-dev libpcre2-dev \
		   libcmocka-dev perl \
		   python3 python3-jsonschema python3-lxml valgrind xz-utils time dwarves \
		   qemu-system-x86 faketime \
		   bc bison flex cpio git libssl-dev python3-ply python3-git gawk \
		   f2fs-tools nilfs-tools xfsprogs
SUDO		:= $(if $(filter 0,$(shell id -u)),,sudo)

all: $(O)/kabidiff $(O)/kabi-agent $(O)/kabi-agent-static

# Objects depend on the flags they were built with: a changed flag (DEVELOPER,
# a new pkg-config answer) rebuilds them, as git's GIT-CFLAGS does.
FLAGS_FILE	:= $(O)/.cflags
FLAGS_NOW	:= $(CC) $(BASIC_CFLAGS) $(CFLAGS) $(SANITIZE)
ifneq ($(FLAGS_NOW),$(file <$(FLAGS_FILE)))
$(shell mkdir -p $(O))
$(file >$(FLAGS_FILE),$(FLAGS_NOW))
endif

# What decides the content of a snapshot collected from packages, which the
# cache keys it by (pipeline/side.c): the sources of the collectors, the
# guest agent, the model and library they use, and the pipeline's
# collecting.  A rebuild that changes none of them keeps the cached
# snapshots; one that changes any of them collects again.
COLLECTING_SRCS	:= $(sort $(wildcard abidiff/lib/*.[ch] abidiff/model/*.[ch] \
		   abidiff/match/*.[ch] abidiff/pipeline/*.[ch] \
		   collectors/*/*.[ch] guest-agent/*.[ch]))
COLLECTING_NOW	:= $(firstword $(shell cat $(COLLECTING_SRCS) | sha256sum))
DIGEST_FILE	:= $(O)/.collecting-digest
ifneq ($(COLLECTING_NOW),$(file <$(DIGEST_FILE)))
$(shell mkdir -p $(O))
$(file >$(DIGEST_FILE),$(COLLECTING_NOW))
endif
SIDE_OBJS	:= $(O)/abidiff/pipeline/side.o $(ASAN_O)/abidiff/pipeline/side.o
$(SIDE_OBJS): $(DIGEST_FILE)
$(SIDE_OBJS): BASIC_CFLAGS += -DCOLLECTING_DIGEST='"$(COLLECTING_NOW)"'

$(O)/kabidiff: $(CLI_OBJS) $(LIB_OBJS)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# The guest agent: static for the guest's initramfs, and for the host
# (kabi-agent --root DIR) in tests.  It links nothing but libc.
AGENT_OBJS	:= $(addprefix $(O)/guest-agent/,agent.o pid1.o watchdog.o value.o \
			stream-writer.o say.o walk.o coldplug.o)

$(O)/kabi-agent: $(AGENT_OBJS)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^

$(O)/kabi-agent-static: $(AGENT_OBJS)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -static -o $@ $^

# and with ASan+UBSan, for the tests that feed it hostile trees
$(ASAN_O)/kabi-agent: $(AGENT_OBJS:$(O)/%=$(ASAN_O)/%)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^

$(ASAN_O)/kabidiff: $(CLI_OBJS:$(O)/%=$(ASAN_O)/%) $(LIB_OBJS:$(O)/%=$(ASAN_O)/%)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $^ $(LIBS)

# Include paths by layer: a file names a header by its folder ("lib/print.h",
# "collectors/sysfs/boot.h"), and sees only the roots its layer may use.
# make check-layers checks the includes themselves.
INCLUDES	:= -Iabidiff
SELF_CONTAINED	:= abidiff/lib/%.o guest-agent/%.o
TOP_LEVEL	:= abidiff/main.o abidiff/builtin/%.o abidiff/cli/%.o \
		   abidiff/pipeline/%.o \
		   collectors/%.o tests/%.o
$(addprefix $(O)/,$(SELF_CONTAINED)) $(addprefix $(ASAN_O)/,$(SELF_CONTAINED)): \
	INCLUDES :=
$(addprefix $(O)/,$(TOP_LEVEL)) $(addprefix $(ASAN_O)/,$(TOP_LEVEL)): \
	INCLUDES := -Iabidiff -I.

$(ASAN_O)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(BASIC_CFLAGS) $(INCLUDES) $(CFLAGS) $(SANITIZE) -c -o $@ $<

$(O)/%.o: %.c $(FLAGS_FILE)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(BASIC_CFLAGS) $(INCLUDES) $(CFLAGS) -c -o $@ $<

$(O)/tests/unit/%: $(O)/tests/unit/%.o $(LIB_OBJS)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

$(ASAN_O)/tests/unit/%: $(ASAN_O)/tests/unit/%.o $(LIB_OBJS:$(O)/%=$(ASAN_O)/%)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $^ $(LIBS) $(TEST_LIBS)

# census-dump reads a package as collect --census does, through the pipeline
$(O)/tests/tools/census-dump: $(addprefix $(O)/abidiff/pipeline/,census.o progress.o)

$(O)/tests/tools/%: $(O)/tests/tools/%.o $(LIB_OBJS)
	$(QUIET_LINK)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# test-vmlinux-oom fails allocations: the objects' calls go to its wrappers.
$(O)/tests/unit/test-vmlinux-oom $(ASAN_O)/tests/unit/test-vmlinux-oom: \
	TEST_LDFLAGS := $(foreach f,malloc calloc realloc reallocarray strdup strndup,-Wl,--wrap=$(f))

$(O)/tests/unit/%.o $(ASAN_O)/tests/unit/%.o: \
	BASIC_CFLAGS += -DSRCDIR='"$(CURDIR)"'

# Keep the test objects: they are the dependency files' anchors.
.SECONDARY:

# $(call install_missing,PACKAGES): apt-get install those not installed yet
define install_missing
	$(Q)missing=; \
	for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q '^install ok installed$$' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q \
			--no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(DEB_PACKAGES))

# The tiers of the tests (tests/README.md): the unit tests; the command
# line and the agent, on small inputs, with no download and no QEMU; the
# real kernels, downloaded and booted.  "make check" runs them all, or the
# tests T names ("make check T=tests/cli/diff.t").
UNIT_RUN	:= $(UNIT_BINS)
CLI_RUN		:= tests/cli/*.t tests/agent/*.t
KERNEL_RUN	:= tests/kernel/*.t
CLI_BUILD	:= check-layers all $(ASAN_O)/kabidiff $(ASAN_O)/kabi-agent \
		   $(TOOL_BINS)
TEST_BUILD	:= $(CLI_BUILD) $(UNIT_BINS)

# The flags above come from pkg-config when the Makefile is read, so the
# build that follows "make deps" needs a fresh read of the Makefile.
check: deps
	$(Q)$(MAKE) --no-print-directory test

test-unit test-cli test-kernel: deps
	$(Q)$(MAKE) --no-print-directory $@-run

test: $(TEST_BUILD)
	$(PROVE) $(PROVE_FLAGS) $(or $(T),$(UNIT_RUN) $(CLI_RUN) $(KERNEL_RUN))

test-unit-run: check-layers $(UNIT_BINS)
	$(PROVE) $(PROVE_FLAGS) $(UNIT_RUN)

# (two at once: these scripts share nothing but the build, which
# tests/cli/install.t leaves alone)
test-cli-run: $(CLI_BUILD)
	$(PROVE) $(PROVE_FLAGS) -j2 $(CLI_RUN)

test-kernel-run: $(TEST_BUILD)
	$(PROVE) $(PROVE_FLAGS) $(KERNEL_RUN)

# Every file includes only what its layer may (docs/design.md).
check-layers:
	$(Q)scripts/check-layers

# Timings never go in the tests: they are printed here, against the
# reference tools measured in the same run.
BENCHES		:= tests/bench/undocumented.sh tests/bench/globstar.sh \
		   tests/bench/vmlinux.sh tests/bench/boot.sh tests/bench/diff.sh \
		   tests/bench/debian.sh tests/bench/census.sh
BENCH_PACKAGES	:= abigail-tools

bench: deps
	$(call install_missing,$(BENCH_PACKAGES))
	$(Q)$(MAKE) --no-print-directory bench-run

bench-run: $(O)/kabidiff
	$(Q)for b in $(BENCHES); do sh $$b || exit; echo; done

# The fixture kernels of kernel-patches/, built once and cached; the
# script installs linux-source-6.1 at the version it pins.
fixture-kernels:
	$(Q)kernel-patches/build-fixtures.sh

# The real upgrade a distribution reviews: Debian 12's kernel against its
# backported 6.12, the newest ABI of each series the archive has (the
# report's header names them), fetched into the cache (about 2.3 GB,
# once), each booted in QEMU, and judged.
DEMO_OLD	:= debian:6.1
DEMO_NEW	:= debian:6.12

demo: deps
	$(Q)$(MAKE) --no-print-directory demo-run

demo-run: all
	$(Q)apt-cache show linux-source-6.1 linux-source-6.12 >/dev/null 2>&1 || \
		$(SUDO) apt-get update -q
	$(Q)echo "$$ kabidiff $(DEMO_OLD) $(DEMO_NEW)"; \
	$(O)/kabidiff $(DEMO_OLD) $(DEMO_NEW); \
	status=$$?; echo "(exit status $$status)"; [ $$status -le 1 ]

# Both fixture kernels collected (vmlinux, a boot in QEMU, their docs) and
# judged: the report of the changes kernel-patches/break/ plants.
DEMO		= $(or $(KABIDIFF_CACHE),$(HOME)/.cache/kabidiff)/demo

demo-fixtures: deps
	$(Q)$(MAKE) --no-print-directory demo-fixtures-run

demo-fixtures-run: all
	$(Q)dir=$$(kernel-patches/build-fixtures.sh | tail -n 1) && \
	mkdir -p "$(DEMO)" && \
	for side in old new; do \
		echo "$$ kabidiff collect -o $(DEMO)/$$side.json $$dir/$$side"; \
		$(O)/kabidiff collect -o "$(DEMO)/$$side.json" "$$dir/$$side" || exit; \
	done && \
	echo "$$ kabidiff $(DEMO)/old.json $(DEMO)/new.json" && \
	$(O)/kabidiff "$(DEMO)/old.json" "$(DEMO)/new.json"; \
	status=$$?; echo "(exit status $$status)"; [ $$status -le 1 ]

# What make install puts in share/doc/kabidiff: the formats the man page
# cites, with their schemas.
DOCS		:= README.md docs/design.md docs/snapshot-format.md docs/agent-stream.md \
		   docs/ci.md docs/policy.md docs/snapshot.schema.json \
		   docs/report.schema.json

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(COMPLETIONDIR)
	$(INSTALL) -m 755 $(O)/kabidiff $(DESTDIR)$(BINDIR)/kabidiff
	$(INSTALL) -m 755 $(O)/kabi-agent-static $(DESTDIR)$(LIBEXECDIR)/kabi-agent-static
	$(INSTALL) -m 644 docs/kabidiff.1 $(DESTDIR)$(MANDIR)/man1/kabidiff.1
	$(INSTALL) -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 644 contrib/completion/kabidiff.bash \
		$(DESTDIR)$(COMPLETIONDIR)/kabidiff

# Removes what install put there, and the folders that were kabidiff's
# alone; into a DESTDIR stage, every folder left empty too.
uninstall:
	$(RM) $(DESTDIR)$(BINDIR)/kabidiff $(DESTDIR)$(LIBEXECDIR)/kabi-agent-static \
		$(DESTDIR)$(MANDIR)/man1/kabidiff.1 \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS))) \
		$(DESTDIR)$(COMPLETIONDIR)/kabidiff
	-rmdir $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(DOCDIR) 2>/dev/null
	$(if $(DESTDIR),-find $(DESTDIR) -mindepth 1 -type d -empty -delete)

clean:
	$(RM) -r $(O)

.PHONY: all deps check check-layers test test-unit test-unit-run test-cli \
	test-cli-run test-kernel test-kernel-run bench bench-run fixture-kernels demo demo-run \
	demo-fixtures demo-fixtures-run \
	install uninstall clean

include tests/fuzz/fuzz.mk

-include $(shell find $(O) -name '*.d' 2>/dev/null)
