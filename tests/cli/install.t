#!/bin/sh
# make install into a DESTDIR stage: the program, the guest agent, the man
# page, the docs and schemas the man page cites, the bash completion (which
# completes commands, a command's options and the values of --format and
# --verdict); then make uninstall leaves the stage empty.
. "$(dirname "$0")/../lib.sh"

STAGE=$TMP/stage
# the flags the tests' build has, in a build directory of its own: the
# tests' build/ stays as it is for the scripts that run beside this one
make -C "$TOP" --no-print-directory DEVELOPER=1 O="$TMP/build" DESTDIR="$STAGE" PREFIX=/usr \
	install >"$TMP/make.out" 2>&1
is "$?" 0 "make install DESTDIR=... PREFIX=/usr"
is "$(cd "$STAGE" && find . -type f | sort | tr '\n' ' ')" \
   "./usr/bin/kabidiff ./usr/libexec/kabidiff/kabi-agent-static ./usr/share/bash-completion/completions/kabidiff ./usr/share/doc/kabidiff/README.md ./usr/share/doc/kabidiff/agent-stream.md ./usr/share/doc/kabidiff/ci.md ./usr/share/doc/kabidiff/design.md ./usr/share/doc/kabidiff/policy.md ./usr/share/doc/kabidiff/report.schema.json ./usr/share/doc/kabidiff/snapshot-format.md ./usr/share/doc/kabidiff/snapshot.schema.json ./usr/share/man/man1/kabidiff.1 " \
   "the files installed"

# complete WORD...: what the completion offers for the last word
complete_words() {
	PATH=$STAGE/usr/bin:$PATH bash -c '
		. "$0"
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_kabidiff
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		"$STAGE/usr/share/bash-completion/completions/kabidiff" "$@"
}
is "$(complete_words kabidiff d)" "diff docs " "completion: the commands"
is "$(complete_words kabidiff diff --fo)" "--format " "completion: diff's options, from its --help"
is "$(complete_words kabidiff collect --de)" "--deb " "completion: collect's options"
is "$(complete_words kabidiff diff --format j)" "json junit " "completion: --format's values, the CI ones too"
is "$(complete_words kabidiff docs v)" "validate " "completion: docs' subcommands"
is "$(complete_words kabidiff waivers --verdict "")" "break note warn " \
   "completion: waivers' --verdict values"

make -C "$TOP" --no-print-directory DEVELOPER=1 O="$TMP/build" DESTDIR="$STAGE" PREFIX=/usr \
	uninstall >"$TMP/make.out" 2>&1
is "$?:$(find "$STAGE" -mindepth 1 | head -n 3)" "0:" "make uninstall leaves the stage empty"

done_testing
