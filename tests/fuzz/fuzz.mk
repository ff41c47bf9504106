# SPDX-License-Identifier: GPL-2.0-only
#
# The libFuzzer harnesses: included from the top-level Makefile, whose
# LIB_SRCS, BASIC_CFLAGS, LIBS, O, Q, V and SUDO it uses.  See
# tests/fuzz/README.md.
#
#   make fuzz-build              build $(O)/fuzz/fuzz-NAME for each of FUZZ_NAMES
#   make fuzz-seed               (re)seed the corpora from the kernel tree and
#                                the fixtures
#   make fuzz                    run each fuzzer for FUZZ_SECONDS (600)
#   make -j2 fuzz                the same, both at once
#   make fuzz FUZZ_SECONDS=60 FUZZ_FLAGS=-jobs=4

FUZZ_O		:= $(O)/fuzz
FUZZ_NAMES	:= abidocs what vmlinux diff policy stream
FUZZ_BINS	:= $(FUZZ_NAMES:%=$(FUZZ_O)/fuzz-%)
FUZZ_SECONDS	?= 600
FUZZ_FLAGS	?=
FUZZ_CC		?= clang
# Every sanitizer finding must abort, or libFuzzer does not keep the input.
# Clang's -Wformat=2, unlike gcc's, flags vfprintf() in the print callback.
FUZZ_CFLAGS	:= -g -O1 -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=all -fno-omit-frame-pointer \
		   $(filter-out -Werror -MMD -MP,$(BASIC_CFLAGS)) -Iabidiff -I. \
		   -Wno-format-nonliteral
# No dependency files here: the sources are compiled and linked in one go.
FUZZ_HDRS	:= $(shell find abidiff collectors guest-agent -name "*.h")
FUZZ_PACKAGES	:= clang libclang-rt-14-dev libjansson-dev pkg-config perl

ifneq ($(V),1)
QUIET_CLANG	= @echo '  CLANG   ' $@;
QUIET_FUZZ	= @echo '  FUZZ    ' $* for $(FUZZ_SECONDS) s;
QUIET_SEED	= @echo '  SEED    ' $(FUZZ_O)/corpus-*;
endif

# Writes one file per unique What: value (What: or Where: lines and the
# paths under them, as collectors/abidocs/parse.c reads them), and one per
# ABI file with its first 64 values joined by NULs, all of them patterns for
# fuzz-what to put in one index; each named by its SHA-1 as libFuzzer names
# what it adds.  Perl because it is one process for ~5,000 files; the code
# has no '#' and no single quote.
FUZZ_WHAT_SEEDER := \
	use Digest::SHA qw(sha1_hex); \
	my $$dir = shift; my %seen; my $$sets = 0; \
	sub seed { \
		open(my $$out, ">", "$$dir/" . sha1_hex($$_[0])) or die "$$dir: $$!\n"; \
		print $$out $$_[0]; \
		close($$out) or die "$$dir: $$!\n"; \
	} \
	for my $$f (@ARGV) { \
		open(my $$in, "<", $$f) or die "$$f: $$!\n"; \
		my $$what = 0; my @mine; \
		while (<$$in>) { \
			s/\r?\n\z//; \
			my $$v; \
			if (/^(?:what|where):(.*)/i) { $$what = 1; $$v = $$1; } \
			elsif (/^(?:date|kernelversion|contact|description|users):/i) { $$what = 0; } \
			elsif ($$what && m{^\s*/}) { $$v = $$_; } \
			next unless defined $$v; \
			$$v =~ s/^[ \t]+|[ \t]+\z//g; \
			next if $$v eq ""; \
			push @mine, $$v if @mine < 64; \
			seed($$v) unless $$seen{$$v}++; \
		} \
		if (@mine > 1) { seed(join("\0", @mine)); $$sets++; } \
	} \
	print scalar(keys %seen), " What: patterns and $$sets sets of them\n";

fuzz-build: $(FUZZ_BINS)

# Clang and its runtimes (libFuzzer, the sanitizers): installed if missing.
fuzz-deps:
	$(call install_missing,$(FUZZ_PACKAGES))

# The harness and every library source, compiled and linked in one step.
$(FUZZ_BINS): $(FUZZ_O)/%: tests/fuzz/%.c $(LIB_SRCS) $(FUZZ_HDRS) \
		tests/fuzz/fuzz.mk | fuzz-deps
	@mkdir -p $(@D)
	$(QUIET_CLANG)$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(LIB_SRCS) $(LIBS)

# The seeds: every ABI file of the kernel tree (named after its path under
# Documentation/ABI) and every What: pattern in them; the vmlinux, snapshot,
# policy and waiver fixtures, and agent streams (kabi-agent --root writes
# one).  Seeds are copied over what is there, so a corpus keeps what earlier
# runs added.  The dictionaries are the tags, the pattern and file syntax,
# the names policy files use and the stream's constants.
fuzz-seed: $(O)/kabi-agent
	$(QUIET_SEED)
	$(Q)tree=$$(tests/kernel-tree.sh) || exit 2; \
	abi=$$tree/Documentation/ABI; \
	mkdir -p $(FUZZ_O)/corpus-abidocs $(FUZZ_O)/corpus-what || exit 2; \
	files=$$(cd "$$abi" && for d in stable testing unstable obsolete private removed; do \
		[ ! -d $$d ] || find $$d -type f; done | LC_ALL=C sort); \
	[ -n "$$files" ] || { echo "no ABI files in $$abi" >&2; exit 2; }; \
	n=0; \
	for f in $$files; do \
		cp "$$abi/$$f" "$(FUZZ_O)/corpus-abidocs/$$(echo "$$f" | tr / _)" || exit 2; \
		n=$$((n + 1)); \
	done; \
	w=$$(cd "$$abi" && perl -e '$(FUZZ_WHAT_SEEDER)' \
		"$(CURDIR)/$(FUZZ_O)/corpus-what" $$files) || exit 2; \
	printf '"%s"\n' What: Where: Date: KernelVersion: Contact: \
		Description: Users: what: /sys/ /proc/sys/ >$(FUZZ_O)/abidocs.dict; \
	printf '"%s"\n' '\x0a' '\x0aWhat:' '\x0a\x09' '\x0d\x0a' ' = ' \
		>>$(FUZZ_O)/abidocs.dict; \
	printf '"%s"\n' / ... /.../ '<' '>' '<N>' '[' ']' ']+' '[^' '[0-9]+' \
		'{' '}' , '*' X Y Z ' = ' '\x0a' '\x00' /sys/ /sys/devices/ \
		>$(FUZZ_O)/what.dict; \
	echo "    $$n ABI files in $(FUZZ_O)/corpus-abidocs, $$w in $(FUZZ_O)/corpus-what"
	$(Q)mini=tests/fixtures/vmlinux/mini.elf; corpus=$(FUZZ_O)/corpus-vmlinux; \
	mkdir -p $$corpus && cp $$mini $$corpus/mini.elf && \
	strip --strip-debug -o $$corpus/mini-no-dwarf.elf $$mini && \
	objcopy --strip-symbol=sys_call_table $$mini $$corpus/mini-no-table.elf && \
	cp tests/fixtures/vmlinux/compat-table.elf \
		tests/fixtures/vmlinux/compat-switch.elf $$corpus/ && \
	printf '"%s"\n' '\x7fELF' sys_call_table __x64_sys_ __x64_sys_ni_syscall \
		__do_sys_ linux_banner __start_syscalls_metadata .symtab .debug_info \
		ia32_sys_call x32_sys_call x64_sys_call ia32_sys_call_table \
		x32_sys_call_table __ia32_sys_ __ia32_compat_sys_ __x32_compat_sys_ \
		>$(FUZZ_O)/vmlinux.dict && \
	echo "    5 ELF files in $$corpus"
	$(Q)corpus=$(FUZZ_O)/corpus-diff; mkdir -p $$corpus && n=0 && \
	for old in tests/fixtures/diff/*.old.json; do \
		name=$$(basename $$old .old.json); \
		{ cat $$old; printf '\0'; cat tests/fixtures/diff/$$name.new.json; } \
			>$$corpus/pair-$$name || exit 2; \
		n=$$((n + 1)); \
	done && \
	for f in tests/fixtures/snapshots/*.json; do \
		cp $$f $$corpus/self-$$(basename $$f) || exit 2; n=$$((n + 1)); \
	done && \
	printf '"%s"\n' '"path"' '"kind"' '"mode"' '"target"' '"value"' '"shape"' \
		'"level"' '"file"' '"what"' '"members"' '"offset"' '"size"' '"type"' \
		'"enumerators"' '"abi"' '"nr"' '"args"' '"dir"' '"link"' '"0644"' \
		'"stable"' '"testing"' '"obsolete"' '"removed"' '\x00' \
		>$(FUZZ_O)/diff.dict && \
	echo "    $$n snapshot pairs in $$corpus"
	$(Q)corpus=$(FUZZ_O)/corpus-policy; mkdir -p $$corpus && \
	cp tests/fixtures/diff/policy.txt tests/fixtures/diff/waivers.txt $$corpus/ && \
	printf '%s\n' 'cap /sys/kernel/debug none  # debugfs is ABI here' \
		'cap "/sys/devices/*/kabi" testing' 'cap /sys/[a-z]* stable' \
		'removed * break' >$$corpus/caps.txt && \
	printf '%s\n' '# KIND SUBJECT REASON' \
		'node-removed /sys/kernel/kabi_selftest/* gone, see bug #123' \
		'*	"struct kabi args"	"v2 of the syscall"	# agreed' \
		'mode-lost /sys/[!k]*/x\[1\] "a reason"' '* x86_64/kabi_* renumbered' \
		>$$corpus/waivers-hash.txt && \
	printf 'mode-lost\t*\t"note"\r\n"incompatible" obsolete warn\r\n' \
		>$$corpus/crlf.txt && \
	{ sed -n 's/.*= { "\([a-z-]*\)", CLASS_.*/"\1"/p' abidiff/diff/change.c; \
	  sed -n 's/.*\[CLASS_[A-Z]*\][[:space:]]*= "\([a-z]*\)",/"\1"/p' abidiff/diff/change.c; \
	  sed -n 's/.*\[LEVEL_[A-Z]*\][[:space:]]*= "\([a-z]*\)",/"\1"/p' abidiff/model/model.c; \
	  printf '"%s"\n' break warn note cap none '*' '\x22' '#' ' #' '\x5c' '[' ']' \
		'[!' '[:alpha:]' /sys/ /sys/kernel/debug x86_64/ 'struct ' \
		'\x09' '\x0a' '\x0d\x0a'; } >$(FUZZ_O)/policy.dict && \
	echo "    5 policy and waiver files in $$corpus"
	$(Q)corpus=$(FUZZ_O)/corpus-stream; tree=$(FUZZ_O)/stream-tree; \
	stream="python3 tests/agent/stream.py"; \
	mkdir -p $$corpus && chmod -R u+w $$tree 2>/dev/null; rm -rf $$tree && \
	python3 tests/sysfs-materialise.py tests/fixtures/sysfs/small.list $$tree && \
	printf '42\n' >$$tree/kernel/uevent_seqnum && \
	printf 'always [madvise] never\n' >$$tree/kernel/mm/transparent_hugepage/enabled && \
	{ printf '\3'; $(O)/kabi-agent --root $$tree --prefix /sys; } >$$corpus/agent-small && \
	chmod -R u+w $$tree && rm -rf $$tree && \
	sed -n '/^```hexdump/,/^```$$/p' docs/agent-stream.md | sed '1d;$$d' \
		>$(FUZZ_O)/stream-example.txt && \
	{ printf '\1'; $$stream unhex $(FUZZ_O)/stream-example.txt; } >$$corpus/docs-example && \
	{ printf '\3'; $$stream bad good; } >$$corpus/good && n=3 && \
	for name in $$($$stream bad-names -); do \
		{ printf '\0'; $$stream bad $$name; } >$$corpus/bad-$$name || exit 2; \
		n=$$((n + 1)); \
	done && \
	printf '"%s"\n' '\x89KABI\x0d\x0a\x0a' H N T '\x01\x00' '\x00\x10\x00\x00' \
		'\xe8\x03\x00\x00' '\xff\x01' '\xa4\x01' /sys /sys/ /proc/sys/ // \
		EACCES ENOENT 0.1 x86_64 '\x00' '\x00\x00' >$(FUZZ_O)/stream.dict && \
	echo "    $$n streams in $$corpus"

# One fuzzer for FUZZ_SECONDS; new inputs go to its corpus, crashes, leaks,
# timeouts and out-of-memory inputs to $(FUZZ_O)/crashes-NAME/.
FUZZ_RUNS	:= $(FUZZ_NAMES:%=fuzz-run-%)

$(FUZZ_RUNS): fuzz-run-%: $(FUZZ_O)/fuzz-% fuzz-seed
	@mkdir -p $(FUZZ_O)/crashes-$*
	$(QUIET_FUZZ)
	$(Q)$(FUZZ_O)/fuzz-$* -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-rss_limit_mb=2048 -dict=$(FUZZ_O)/$*.dict \
		-artifact_prefix=$(FUZZ_O)/crashes-$*/ $(FUZZ_FLAGS) \
		$(FUZZ_O)/corpus-$*

fuzz: $(FUZZ_RUNS)
	$(Q)set -- $(FUZZ_NAMES:%=$(FUZZ_O)/crashes-%/*); \
	for f; do [ ! -e "$$f" ] || echo "crash input: $$f"; done

.PHONY: fuzz fuzz-build fuzz-deps fuzz-seed $(FUZZ_RUNS)
