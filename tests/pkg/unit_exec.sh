# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/pkg: reads a systemd unit the way systemd would for the
# parts xgtop-exporter.service uses, so a test can run its command without
# a running systemd.

# unit_command UNIT [VAR=VALUE...]: ExecStart's argv, one per line, after
# Environment=, then each EnvironmentFile= (later wins, as in systemd),
# then the VAR=VALUE overrides (what an edited /etc/default would give).
# ${VAR} becomes one argument, $VAR is split at white space.
unit_command() {
	local unit=$1 line key val file word name
	shift
	local -A env=()
	local exec=
	while IFS= read -r line; do
		key=${line%%=*} val=${line#*=}
		case $key in
		Environment) for word in $val; do env[${word%%=*}]=${word#*=}; done ;;
		EnvironmentFile)
			file=${val#-}
			[ -r "$file" ] || { [ "$val" != "$file" ] && continue; return 1; }
			while IFS= read -r word; do
				[[ $word =~ ^[[:space:]]*(#|$) ]] && continue
				name=${word%%=*} word=${word#*=}
				word=${word#\"} word=${word%\"}
				env[$name]=$word
			done <"$file" ;;
		ExecStart) exec=$val ;;
		esac
	done < <(sed -n 's/^\([A-Za-z]*=.*\)$/\1/p' "$unit")
	for word in "$@"; do env[${word%%=*}]=${word#*=}; done
	[ -n "$exec" ] || return 1
	case $exec in *[\'\"\\]*) echo "unit_command: quoting in ExecStart is not handled" >&2; return 1 ;; esac
	for word in $exec; do
		if [[ $word =~ ^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$ ]]; then
			printf '%s\n' "${env[${BASH_REMATCH[1]}]}"
		elif [[ $word =~ ^\$([A-Za-z_][A-Za-z0-9_]*)$ ]]; then
			for val in ${env[${BASH_REMATCH[1]}]}; do printf '%s\n' "$val"; done
		else
			printf '%s\n' "$word"
		fi
	done
}

# unit_sandbox UNIT: a setpriv command line (one word per line) applying the
# unit's CapabilityBoundingSet= and NoNewPrivileges=.
unit_sandbox() {
	local caps nnp
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$1" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ \+/,/g')
	nnp=$(sed -n 's/^NoNewPrivileges=//p' "$1")
	echo setpriv
	[ -n "$caps" ] && echo "--bounding-set=-all,$caps"
	[ "$nnp" = yes ] && echo "--no-new-privs"
	echo --
}
