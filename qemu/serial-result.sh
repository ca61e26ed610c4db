#!/bin/sh
# One transcript's CTest test when a batch played it (tests/serial_tests.cmake): print the report
# `rndbits-qemu test --results DIR` left in STEM.pass|.fail|.skip, delete it (a later run of this
# test alone must not find it) and exit as `rndbits-qemu test` on that transcript would have;
# without one (the batch was not run, or stopped before this transcript), play it: COMMAND...
# Usage: serial-result.sh STEM COMMAND...
stem=$1
shift
for kind in pass fail skip; do
	if [ -f "$stem.$kind" ]; then
		# (the shell's own read and printf, not cat: one process less for each of make test's
		# ~950 transcript tests, ~6 ms of CPU each)
		while IFS= read -r line || [ -n "$line" ]; do printf '%s\n' "$line"; done <"$stem.$kind"
		rm -f "$stem.$kind"
		case $kind in
		pass) exit 0 ;;
		fail) exit 1 ;;
		*) exit 2 ;;
		esac
	fi
done
exec "$@"
