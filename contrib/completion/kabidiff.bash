# SPDX-License-Identifier: GPL-2.0-only
# bash completion for kabidiff: its commands, each command's options (as
# its --help lists them), the values of --format, --color, --machine,
# --parts and --verdict, and file names for the rest.  Installed by make
# install into share/bash-completion/completions/.

# The long options COMMAND's --help names (and the global ones with none).
_kabidiff_options()
{
	"${1:-kabidiff}" ${2:+"$2"} --help 2>/dev/null |
		grep -o -- '--[a-z][a-z-]*' | sort -u
}

_kabidiff()
{
	local cur prev cmd i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	case $prev in
	--format) COMPREPLY=($(compgen -W 'text json markdown ktap junit sarif' -- "$cur")); return ;;
	--color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
	--machine) COMPREPLY=($(compgen -W 'standard minimal' -- "$cur")); return ;;
	--accel) COMPREPLY=($(compgen -W 'tcg kvm' -- "$cur")); return ;;
	--parts) COMPREPLY=($(compgen -W 'sysfs syscalls vdso types docs census' -- "$cur")); return ;;
	--verdict) COMPREPLY=($(compgen -W 'break warn note' -- "$cur")); return ;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_kabidiff_options "${COMP_WORDS[0]}")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W 'diff bisect check collect docs show undocumented waivers help' -- "$cur"))
			[ ${#COMPREPLY[@]} -gt 0 ] || COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return
	fi
	if [ "$cmd" = docs ] && [ "$prev" = docs ]; then
		COMPREPLY=($(compgen -W 'validate search diff' -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_kabidiff_options "${COMP_WORDS[0]}" "$cmd")" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _kabidiff kabidiff
