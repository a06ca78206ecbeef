import Testing
@testable import WatchSources

/// Reading `/proc/self/mountinfo` and choosing what `.auto` polls.
@Suite struct MountTableTests {
    private let sample = """
        22 27 0:21 / /proc rw,relatime - proc proc rw
        27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
        40 27 0:39 / /home/me/share rw,nosuid - nfs4 server:/export rw,vers=4.2
        41 27 0:40 / /mnt/with\\040space rw shared:5 master:2 - fuse.sshfs me@host:/ rw
        42 27 0:41 /sub /srv/bound rw - ext4 /dev/vdb rw
        43 27 0:42 / /mnt/c rw - 9p drvfs rw
        bad line
        """

    @Test func fieldsAreReadAndEscapesDecoded() {
        let table = MountTable(parsing: Array(sample.utf8))
        #expect(table.mounts.count == 6)
        let sshfs = table.mounts.first { $0.fsType == "fuse.sshfs" }
        #expect(sshfs?.mountPoint == Array("/mnt/with space".utf8))
        #expect(sshfs?.device == MountTable.device(major: 0, minor: 40))
        #expect(table.mount(device: MountTable.device(major: 254, minor: 0))?.fsType == "ext4")
    }

    @Test func networkAndFuseTypesArePolledLocalOnesNot() {
        for type in ["nfs", "nfs4", "cifs", "smb3", "9p", "virtiofs", "fuse", "fuse.sshfs", "fuse.bindfs", "vboxsf", "drvfs", "ceph", "glusterfs"] {
            #expect(MountTable.needsPolling(fsType: type), "\(type)")
        }
        for type in ["ext4", "xfs", "btrfs", "tmpfs", "overlay", "fuseblk", "proc"] {
            #expect(!MountTable.needsPolling(fsType: type), "\(type)")
        }
    }

    @Test func deviceNumbersAreBuiltAsGlibcDoes() {
        // makedev(8, 1) and a major/minor above 255 (12 and 20 bits).
        #expect(MountTable.device(major: 8, minor: 1) == 0x801)
        #expect(MountTable.device(major: 0x1234, minor: 0x56789) == 0x1000_5672_3489)
    }
}
