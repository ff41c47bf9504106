#!/bin/sh
# The module set a machine's drivers take into the guest's initramfs
# (collectors/sysfs/modules.c, through tests/tools/module-table), on a
# small modules tree made here: modules that are only a .modinfo section,
# compiled by gcc, one of them xz-compressed as Debian's 6.12 packages
# ship them.  What the wanted modules depend on comes along, a module the
# kernel has built in is skipped, one it lacks is a warning, a dependency
# it lacks or a tree without modules.order an error.
. "$(dirname "$0")/../lib.sh"

TOOL=$TOP/build/tests/tools/module-table
not_built "$TOOL" && done_testing
command -v xz >/dev/null || skip_all "xz is not installed ('make deps' installs xz-utils)"

T=$TMP/lib/modules/6.1.0-test
mkdir -p "$T/kernel/drivers/net" "$T/kernel/lib"
# module DIR NAME MODINFO: $T/kernel/DIR/NAME.ko holding .modinfo MODINFO
# (fields separated by '|')
module() {
	printf 'static const char modinfo[] __attribute__((section(".modinfo"), used)) = "%s";\n' \
		"$(printf '%s' "$3" | sed 's/|/\\0/g')" >"$TMP/m.c"
	gcc -c -o "$T/kernel/$1/$2.ko" "$TMP/m.c" || missing_input "gcc failed on $2's .modinfo"
}
module drivers/net net-a 'alias=pci:v00001234d00000001sv*sd*bc*sc*i*|alias=virtio:d00000001v*|depends=lib_b,lib-c|name=net_a'
module lib lib_b 'depends=|name=lib_b'
module lib lib-c 'depends=lib_d|name=lib_c'
module lib lib_d 'name=lib_d'
module drivers/net other 'alias=pci:v*d*sv*sd*bc02sc00i*|depends=|name=other'
xz "$T/kernel/lib/lib_d.ko"
printf '%s\n' kernel/drivers/net/net-a.ko kernel/lib/lib_b.ko kernel/lib/lib-c.ko \
	kernel/lib/lib_d.ko kernel/drivers/net/other.ko >"$T/modules.order"
printf '%s\n' kernel/drivers/virtio/virtio_pci.ko >"$T/modules.builtin"

"$TOOL" "$T" net_a virtio_pci >"$TMP/out" 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "0:" "net_a and the built-in virtio_pci: no warning"
is "$(cat "$TMP/out")" "modules/lib_b.ko $T/kernel/lib/lib_b.ko
modules/lib_c.ko $T/kernel/lib/lib-c.ko
modules/lib_d.ko.xz $T/kernel/lib/lib_d.ko.xz
modules/net_a.ko $T/kernel/drivers/net/net-a.ko
module lib_b modules/lib_b.ko -
module lib_c modules/lib_c.ko lib_d
module lib_d modules/lib_d.ko.xz -
module net_a modules/net_a.ko lib_b,lib_c
alias pci:v00001234d00000001sv*sd*bc*sc*i* net_a
alias virtio:d00000001v* net_a" "what net_a depends on, through lib_c, compressed lib_d too; names with '_'; other left out"

"$TOOL" "$T" nvme >"$TMP/out" 2>"$TMP/err"
is "$?:$(cat "$TMP/out"):$(cat "$TMP/err")" \
   "0::kabidiff: warning: $T: no module nvme, nor is it built in: the devices it drives stay unbound" \
   "a module the tree lacks and the kernel has not built in: a warning"

rm "$T/kernel/lib/lib_b.ko"
sed -i '/lib_b/d' "$T/modules.order"
"$TOOL" "$T" net_a >"$TMP/out" 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" \
   "1:kabidiff: $T: module lib_b, which net_a depends on, is not in modules.order" \
   "a dependency the tree lacks: an error"

rm "$T/modules.order"
"$TOOL" "$T" net_a >"$TMP/out" 2>"$TMP/err"
is "$?:$(cat "$TMP/err")" "1:kabidiff: $T/modules.order: No such file or directory" \
   "a tree without modules.order: an error that names it"

done_testing
