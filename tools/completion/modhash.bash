# bash completion for modhash(1)                      -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0
#
# Installed as share/bash-completion/completions/modhash, where
# bash-completion loads it (its helpers _init_completion and _filedir are
# used here).
#
# Commands and options are read from the program's own help, "modhash
# --help" (the lines under "Commands:") and "modhash COMMAND --help" (the
# lines that start with an option), so a new command or option is
# completed as soon as the program has it, with nothing to add here.
# What follows an option comes from the word its help puts after it
# (--modules=DIR, --kernel KERNEL, --strip=PROGRAM): a directory, a
# program, a hash algorithm, nothing for a number, a file otherwise.
# Options whose values are a fixed set are listed in _modhash_values:
# an option with a new set of values (or a command giving an existing
# option new values) gets a line there.  Other words are files.

# _modhash_values COMMAND OPTION: the values OPTION takes in COMMAND, if
# they are a fixed set
_modhash_values()
{
	case $1:$2 in
	list:--format) echo hex sha256sum json raw ;;
	generate:--format) echo raw hex sha256sum json ;;
	export:--format) echo sha256sum keylime ;;
	check:--format | diff:--format | verify-log:--format) echo text json ;;
	generate:--forms) echo built stripped built,stripped ;;
	*) return 1 ;;
	esac
}

# _modhash_commands PROGRAM: the commands PROGRAM --help lists
_modhash_commands()
{
	local line on=
	while IFS= read -r line; do
		if [[ $line == Commands:* ]]; then
			on=1
		elif [[ $on && $line =~ ^\ +([a-z][a-z0-9-]*)\  ]]; then
			echo "${BASH_REMATCH[1]}"
		elif [[ $on && -z $line ]]; then
			break
		fi
	done < <(LC_ALL=C "$1" --help 2>/dev/null)
}

# _modhash_options PROGRAM [COMMAND]: a line "OPTION ARG" for each option
# in PROGRAM [COMMAND] --help, ARG empty for an option that takes none.  The
# option column of a help line ends at two spaces; "-f, --format=FORMAT"
# gives "--format FORMAT" and "-f FORMAT"; an ARG is one word in capitals
# (FILE, [ALGO,]FILE, HEX|FILE).
_modhash_options()
{
	local line spec parts i arg
	while IFS= read -r line; do
		[[ $line =~ ^\ {1,8}(-[^\ ].*) ]] || continue
		spec=${BASH_REMATCH[1]%%  *}
		mapfile -t parts <<< "${spec//, -/$'\n'-}"
		arg=
		for ((i = ${#parts[@]} - 1; i >= 0; i--)); do
			[[ ${parts[i]} =~ ^(-[^=\ ]+)([=\ ]([A-Z[][^\ ]*))? ]] || continue
			arg=${BASH_REMATCH[3]:-$arg}
			echo "${BASH_REMATCH[1]} $arg"
		done
	done < <(LC_ALL=C "$1" ${2:+"$2"} --help 2>/dev/null)
}

_modhash()
{
	local cur prev words cword split
	_init_completion -s || return

	local prog=${words[0]} cmd=${words[1]} i opt arg takes= values
	if ((cword == 1)); then	# a command, or an option of modhash itself
		local words1
		words1="$(_modhash_commands "$prog") --help"
		while read -r opt arg; do
			[[ $opt == --* ]] && words1+=" $opt"
		done < <(_modhash_options "$prog")
		mapfile -t COMPREPLY < <(compgen -W "$words1" -- "$cur")
		return
	fi
	[[ $cmd == -* ]] && return

	# After "--", files only.
	for ((i = 2; i < cword; i++)); do
		[[ ${words[i]} == -- ]] && { _filedir; return; }
	done

	local options
	options=$(_modhash_options "$prog" "$cmd")

	# The argument of the option before (or of --option=cur).
	if [[ $prev == -* ]]; then
		while read -r opt arg; do
			[[ $opt == "$prev" ]] && { takes=${arg:-none}; break; }
		done <<< "$options"
	fi
	if [[ $takes && $takes != none ]]; then
		local long=$prev
		if [[ $long != --* ]]; then	# the long name of a short option
			while read -r opt arg; do
				[[ $opt == --* && $arg == "$takes" ]] && { long=$opt; break; }
			done <<< "$options"
		fi
		if values=$(_modhash_values "$cmd" "$long"); then
			mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
			return
		fi
		case $takes in
		*DIR* | PREFIX | PATH) _filedir -d ;;
		PROGRAM) mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
		ALGO) mapfile -t COMPREPLY < <(compgen -W "sha1 sha224 sha256 sha384 sha512" -- "$cur") ;;
		N | NUM | FORMAT) ;;	# a number; a format not in _modhash_values
		*) _filedir ;;
		esac
		return
	fi
	$split && return

	if [[ $cur == -* ]]; then
		local longs=()
		while read -r opt arg; do
			[[ $opt == --* ]] || continue
			longs+=("$opt${arg:+=}")
		done <<< "$options"
		mapfile -t COMPREPLY < <(compgen -W "${longs[*]}" -- "$cur")
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return
	fi
	_filedir
}
complete -F _modhash modhash
