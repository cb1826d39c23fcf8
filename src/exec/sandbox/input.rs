//! A submission's standard input: a sealed in-memory copy of its input
//! file, never a descriptor to the file itself.
//!
//! A descriptor to the real file can be turned against it: without root
//! the program runs as the file's owner, and `open("/proc/self/fd/0",
//! O_WRONLY|O_TRUNC)` (a reopen through the descriptor's magic link, which
//! no mount hides) or `fchmod(0, …)` rewrites the case for every later
//! run. So the program gets a `memfd` holding a copy of the input, sealed
//! against every change (`F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK`,
//! then `F_SEAL_SEAL`): it is seekable and can be mapped like a file, and
//! a reopen for writing, a truncation, a write or a mode change can touch
//! only the copy, which the seals keep as it is and which dies with the
//! run. The copy is made by the kernel (`copy_file_range`, else
//! `sendfile`: `std::io::copy` between two files), and its pages are
//! charged to the judge, which made them, not to the run's memory.

use std::fs::File;
use std::os::fd::OwnedFd;
use std::path::Path;

/// The sealed copy of `path`, at offset 0.
pub(crate) fn sealed_copy(path: &Path) -> std::io::Result<OwnedFd> {
    use rustix::fs::{MemfdFlags, SealFlags};
    let mut source = File::open(path)?;
    let memfd =
        rustix::fs::memfd_create(c"input", MemfdFlags::CLOEXEC | MemfdFlags::ALLOW_SEALING)?;
    let mut copy = File::from(memfd);
    std::io::copy(&mut source, &mut copy)?;
    let memfd = OwnedFd::from(copy);
    rustix::fs::fcntl_add_seals(
        &memfd,
        SealFlags::WRITE | SealFlags::GROW | SealFlags::SHRINK | SealFlags::SEAL,
    )?;
    rustix::fs::seek(&memfd, rustix::fs::SeekFrom::Start(0))?;
    Ok(memfd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, Write};

    #[test]
    fn the_copy_is_the_input_and_cannot_be_changed_through_any_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("1.in");
        std::fs::write(&path, "2\n1 2\n3 4\n").unwrap();
        let fd = sealed_copy(&path).unwrap();
        let mut file = File::from(fd);
        let mut text = String::new();
        file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "2\n1 2\n3 4\n");
        file.rewind().unwrap();
        // Its own descriptor is read-write, but every change is refused.
        assert!(file.write_all(b"x").is_err());
        assert!(file.set_len(0).is_err());
        assert!(file.set_len(100).is_err());
        // Reopened through /proc, as a program would through fd 0.
        use std::os::fd::AsRawFd;
        let link = format!("/proc/self/fd/{}", file.as_raw_fd());
        let truncating = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&link);
        assert!(truncating.is_err(), "O_WRONLY|O_TRUNC reopen must fail");
        if let Ok(mut rw) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&link)
        {
            assert!(rw.write_all(b"9\n").is_err());
        }
        // A mode change touches only the copy, never the file.
        use std::os::unix::fs::PermissionsExt;
        let before = std::fs::metadata(&path).unwrap().permissions().mode();
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o777));
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode(),
            before
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "2\n1 2\n3 4\n");
        let mut again = String::new();
        file.rewind().unwrap();
        file.read_to_string(&mut again).unwrap();
        assert_eq!(again, "2\n1 2\n3 4\n");
    }

    #[test]
    fn an_empty_and_a_large_input_are_copied_whole() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.in");
        std::fs::write(&empty, "").unwrap();
        let mut text = Vec::new();
        File::from(sealed_copy(&empty).unwrap())
            .read_to_end(&mut text)
            .unwrap();
        assert!(text.is_empty());
        let large = dir.path().join("large.in");
        let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&large, &bytes).unwrap();
        let mut copy = Vec::new();
        File::from(sealed_copy(&large).unwrap())
            .read_to_end(&mut copy)
            .unwrap();
        assert!(copy == bytes, "the copy differs from the input");
    }
}
