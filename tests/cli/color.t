#!/bin/sh
# Colour in the text report: --color[=WHEN] (a bare --color is always, as
# git's), auto on a terminal only, and NO_COLOR (no-color.org) turning auto
# off when it is set and not empty.  script(1) gives the report a terminal.
. "$(dirname "$0")/../lib.sh"

D=$FIXTURES/diff
ESC=$(printf '\033')

# coloured OUTPUT: whether it holds an SGR escape
coloured() {
	case $1 in
	*"$ESC["*) echo yes ;;
	*) echo no ;;
	esac
}

run_kabidiff diff --color "$D/docs.old.json" "$D/docs.new.json"
is "$status:$(coloured "$out")" "1:yes" "a bare --color is always"
run_kabidiff diff --color=always "$D/docs.old.json" "$D/docs.new.json"
is "$status:$(coloured "$out")" "1:yes" "--color=always"
run_kabidiff diff --color=never "$D/docs.old.json" "$D/docs.new.json"
is "$status:$(coloured "$out")" "1:no" "--color=never"
run_kabidiff diff "$D/docs.old.json" "$D/docs.new.json"
is "$status:$(coloured "$out")" "1:no" "auto, into a file: no colour"
run_kabidiff diff --color=sometimes "$D/docs.old.json" "$D/docs.new.json"
is "$status:$err" "2:kabidiff: --color is auto, always or never, not 'sometimes'
Try 'kabidiff diff --help'." "--color=sometimes: a usage error"

if command -v script >/dev/null; then
	# on_terminal ENV...: the report of a diff run on a pseudo-terminal
	on_terminal() {
		env "$@" script -qec "'$KABIDIFF' diff '$D/docs.old.json' '$D/docs.new.json'" /dev/null
	}
	is "$(coloured "$(on_terminal -u NO_COLOR)")" yes "auto on a terminal: colour"
	is "$(coloured "$(on_terminal NO_COLOR=1)")" no "auto on a terminal, NO_COLOR=1: none"
	is "$(coloured "$(on_terminal NO_COLOR=)")" yes \
	   "auto on a terminal, NO_COLOR set but empty: colour (no-color.org)"
	is "$(coloured "$(env NO_COLOR=1 "$KABIDIFF" diff --color "$D/docs.old.json" "$D/docs.new.json")")" \
	   yes "NO_COLOR=1 and --color: colour, as asked"
else
	pass "# SKIP no script(1) to give the report a terminal"
fi

done_testing
