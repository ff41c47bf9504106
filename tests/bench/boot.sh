#!/bin/sh
# make bench, QEMU part: boot-to-snapshot wall time of 'kabidiff collect
# --image' on the vmlinuz of Debian's newest 6.1 (6.1.0-57 when this was
# written) under TCG, on the standard machine with the package's modules,
# which the guest loads for its devices (target: 15 s on 2 cores), and on
# the minimal machine without modules
# (target: 6 s); the throughput of the agent's data channel (the second
# serial port) as the agent measured it inside the guest; and, beside the
# minimal machine, a bare boot of the same kernel: QEMU started with the
# very arguments kabidiff gave it, but an initramfs whose /init only mounts
# sysfs and powers off, once with the kernel kabidiff booted (its copy
# with the kernel decompressed on the host, collectors/sysfs/unpack.c; the
# host's 0.8 s of unpacking are not in this one) and once with the vmlinuz
# itself, whose decompressor then runs in the guest.
set -eu

RUNS=${RUNS:-3}
. "$(dirname "$0")/lib.sh"
# a series, not an ABI the archive drops
export KABIDIFF_DEBIAN_ABI=6.1
IMAGE=$("$TOP/tests/debian-vmlinux.sh" --image)
MODULES=$("$TOP/tests/debian-vmlinux.sh" --modules)
QEMU=qemu-system-x86_64

echo "kabidiff collect --image ${IMAGE##*/} (QEMU, tcg; best of $RUNS runs)"
# boot LABEL TARGET OPTION...: one line of timings, one of the data channel
boot() {
	label=$1 target=$2
	shift 2
	set -- "$label" "$target" $(measure "$RUNS" "$KABIDIFF" collect --image "$IMAGE" "$@" \
		-o "$TMP/snap.json") "$@"
	label=$1 target=$2 wall=$3 peak=$4
	shift 4
	KABIDIFF_VERBOSE=1 "$KABIDIFF" collect --image "$IMAGE" "$@" \
		-o "$TMP/snap.json" 2>"$TMP/err"
	awk -v l="$label" -v w="$wall" -v m="$peak" -v t="$target" 'BEGIN {
		printf "  %-36s boot to snapshot %6.2f s (target %s s), peak %.1f MB (of QEMU)\n",
		       l, w, t, m / 1024 }'
	sed -n 's/.*kabi-agent: done: //p' "$TMP/err" | awk '{
		nodes = $1; bytes = $3; secs = $6
		printf "  %-36s %d nodes, %d bytes in %.2f s in the guest: %.0f KB/s\n",
		       "", nodes, bytes, secs, bytes / secs / 1024 }'
}

# The bare guest: a static /init, alone in a cpio archive.
bare_initramfs() {
	mkdir "$TMP/bare"
	cat >"$TMP/bare.c" <<-'EOF'
	#include <sys/mount.h>
	#include <sys/reboot.h>
	#include <sys/stat.h>
	#include <unistd.h>

	int main(void)
	{
		mkdir("/sys", 0555);
		mount("sysfs", "/sys", "sysfs", 0, NULL);
		sync();
		reboot(RB_POWER_OFF);
		return 1;
	}
	EOF
	gcc -static -O2 -o "$TMP/bare/init" "$TMP/bare.c"
	(cd "$TMP/bare" && echo init | cpio --quiet -o -H newc) >"$TMP/bare.cpio"
}

# Record the QEMU command line of 'kabidiff collect' on the minimal machine,
# one argument a line in $TMP/qemu.args, and keep the kernel it boots as
# $TMP/kernel.img: a qemu-system-x86_64 first in PATH that writes them down
# and runs the real one.
record_qemu() {
	mkdir "$TMP/rec"
	cat >"$TMP/rec/$QEMU" <<-EOF
	#!/bin/sh
	: >"$TMP/qemu.args"
	kernel=
	for a; do
		printf '%s\n' "\$a" >>"$TMP/qemu.args"
		[ "\$kernel" = next ] && kernel=\$a
		[ "\$a" = -kernel ] && kernel=next
	done
	cp --sparse=always "\$kernel" "$TMP/kernel.img"
	PATH='$PATH' exec $QEMU "\$@"
	EOF
	chmod +x "$TMP/rec/$QEMU"
	PATH="$TMP/rec:$PATH" "$KABIDIFF" collect --image "$IMAGE" --machine minimal \
		-o "$TMP/snap.json" 2>"$TMP/err"
}

# bare LABEL KERNEL: the recorded command line with KERNEL, the bare
# initramfs, and its serial ports to scratch files
bare() {
	label=$1 kernel=$2 prev=
	set --
	while IFS= read -r a; do
		case $prev in
		-kernel) a=$kernel ;;
		-initrd) a=$TMP/bare.cpio ;;
		-serial) a=file:$TMP/bare-serial$# ;;
		esac
		set -- "$@" "$a"
		prev=$a
	done <"$TMP/qemu.args"
	set -- $(measure "$RUNS" "$QEMU" "$@")
	grep -q 'reboot: Power down' "$TMP/bare-serial"* ||
		{ echo "bench: the bare guest did not power off" >&2; exit 1; }
	awk -v l="$label" -v w="$1" 'BEGIN {
		printf "  %-36s bare boot %6.2f s (/init mounts sysfs, powers off)\n", l, w }'
}

boot "standard machine, package's modules" 15 --modules "$MODULES"
boot "minimal machine, no modules" 6 --machine minimal
bare_initramfs
record_qemu
bare "  same QEMU arguments, same kernel" "$TMP/kernel.img"
bare "  same, but the vmlinuz itself" "$IMAGE"
