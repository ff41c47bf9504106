#!/bin/sh
# collect --image with a stand-in for QEMU on $PATH: an image that is no
# kernel never reaches QEMU, what QEMU says goes into the error when it
# fails, and nowhere when it succeeds.
. "$(dirname "$0")/../lib.sh"

mkdir "$TMP/bin"
# the agent beside build/kabidiff, whichever binary runs (build/asan/ has none)
KABIDIFF_AGENT=${KABIDIFF_AGENT:-$TOP/build/kabi-agent-static}
export KABIDIFF_AGENT
# what QEMU is given must have the x86 boot header, "HdrS" at 0x202
printf 'not a kernel\n' >"$TMP/text"
head -c 514 /dev/zero >"$TMP/bzImage"
printf 'HdrS' >>"$TMP/bzImage"
# fake_qemu WARNING STATUS: a QEMU that opens its serial files, as the
# real one does, says WARNING and exits with STATUS
fake_qemu() {
	cat >"$TMP/bin/qemu-system-x86_64" <<EOS
#!/bin/sh
for arg; do
	case "\$arg" in file:*) : >"\${arg#file:}" ;; esac
done
echo "qemu-system-x86_64: warning: $1" >&2
exit $2
EOS
	chmod +x "$TMP/bin/qemu-system-x86_64"
}

# the plain build and the sanitizer build alike
plain=$KABIDIFF
for KABIDIFF in "$KABIDIFF" "$ASAN_KABIDIFF"; do
	not_built "$KABIDIFF" && continue
	name=${KABIDIFF#"$TOP"/}
	fake_qemu "must not run" 1
	PATH=$TMP/bin:$PATH run_kabidiff collect --image "$TMP/text" -o "$TMP/out.json"
	is "$status:$err:$(ls "$TMP/out.json" 2>/dev/null)" \
	   "2:kabidiff: $TMP/text: not a kernel image to boot (no x86 boot header, \"HdrS\" at 0x202): give a bzImage or vmlinuz:" \
	   "a file that is no kernel image is refused before QEMU starts ($name)"
	PATH=$TMP/bin:$PATH run_kabidiff collect --image "$TMP/missing" -o "$TMP/out.json"
	is "$status:$err" "2:kabidiff: $TMP/missing: No such file or directory" \
	   "a missing image is refused before QEMU starts ($name)"

	fake_qemu "something is off" 1
	PATH=$TMP/bin:$PATH run_kabidiff collect --image "$TMP/bzImage" -o "$TMP/out.json"
	is "$status:$err:$(ls "$TMP/out.json" 2>/dev/null)" \
	   "2:kabidiff: qemu-system-x86_64 exited with status 1 booting $TMP/bzImage
kabidiff: qemu-system-x86_64 said:
kabidiff:   qemu-system-x86_64: warning: something is off
kabidiff: the guest wrote nothing on its console:" \
	   "a QEMU that fails: its status in words and what it said, no snapshot ($name)"

	fake_qemu "icount sleep disabled and no active timers" 0
	PATH=$TMP/bin:$PATH run_kabidiff collect --image "$TMP/bzImage" -o "$TMP/out.json"
	is "$status:$err" \
	   "2:kabidiff: $TMP/bzImage: no agent stream (0 bytes without the agent's magic): did the guest start the agent?
kabidiff: the guest wrote nothing on its console" \
	   "a QEMU that ends well says nothing of its own; the missing stream is the error ($name)"
done
KABIDIFF=$plain

done_testing
