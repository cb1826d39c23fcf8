//! What the judge sends a slot's launcher for one program, and how the
//! launcher reads it back without allocating (it is a forked copy of a
//! multi-threaded process: system calls and its own fixed buffers only).
//!
//! Layout, native-endian: magic, flags, uid, gid, the number of cgroup
//! descriptors, the number of limits, then each limit (resource as u32,
//! soft and hard as u64), the number of arguments and of environment
//! entries, then NUL-terminated strings: the working directory, the
//! program, the arguments (the program first), the environment. The
//! descriptors travel beside it (`SCM_RIGHTS`): standard input, output and
//! error, then the cgroup files to join.

use std::ffi::{CString, c_char};

/// Requests larger than this are not sent (the judge starts the program
/// itself, as without a launcher).
pub(super) const REQUEST_MAX: usize = 64 * 1024;
/// Argument and environment pointers the launcher has room for (each
/// list ends in a null pointer).
pub(super) const POINTERS_MAX: usize = 4096;
/// Descriptors a request carries at most: three streams and the cgroups.
pub(super) const FDS_MAX: usize = 8;
/// Resource limits a request carries at most.
pub(super) const RLIMITS_MAX: usize = 16;

const MAGIC: u32 = 0x4a4c_5231; // "JLR1"
const NO_NEW_PRIVS: u32 = 1;
const HAS_USER: u32 = 2;
const FRESH_IPC: u32 = 4;
const KEEP_CPUS: u32 = 8;

/// One program to start, as the judge has it.
pub(super) struct Spec<'a> {
    pub(super) program: &'a CString,
    pub(super) argv: &'a [CString],
    pub(super) envp: &'a [CString],
    pub(super) cwd: &'a CString,
    pub(super) rlimits: &'a [(libc::__rlimit_resource_t, u64, u64)],
    pub(super) user: Option<(u32, u32)>,
    pub(super) no_new_privs: bool,
    pub(super) cgroup_fds: usize,
    /// Start it in a fresh IPC namespace whatever the present one holds
    /// (the slot's last run may have left a process the judge could not
    /// end).
    pub(super) fresh_ipc: bool,
    /// The program keeps the launcher's CPUs (its slot's core:
    /// `exec::affinity`) instead of taking the judge's back.
    pub(super) keep_cpus: bool,
}

/// The request's bytes, or `None` when it does not fit the launcher's
/// buffers.
pub(super) fn encode(spec: &Spec<'_>) -> Option<Vec<u8>> {
    if spec.argv.len() + spec.envp.len() + 2 > POINTERS_MAX
        || spec.rlimits.len() > RLIMITS_MAX
        || spec.cgroup_fds + 3 > FDS_MAX
    {
        return None;
    }
    let mut out = Vec::with_capacity(512);
    let mut flags = 0;
    if spec.no_new_privs {
        flags |= NO_NEW_PRIVS;
    }
    if spec.user.is_some() {
        flags |= HAS_USER;
    }
    if spec.fresh_ipc {
        flags |= FRESH_IPC;
    }
    if spec.keep_cpus {
        flags |= KEEP_CPUS;
    }
    let (uid, gid) = spec.user.unwrap_or((0, 0));
    for word in [
        MAGIC,
        flags,
        uid,
        gid,
        spec.cgroup_fds as u32,
        spec.rlimits.len() as u32,
    ] {
        out.extend_from_slice(&word.to_ne_bytes());
    }
    for &(resource, soft, hard) in spec.rlimits {
        out.extend_from_slice(&resource.to_ne_bytes());
        out.extend_from_slice(&soft.to_ne_bytes());
        out.extend_from_slice(&hard.to_ne_bytes());
    }
    out.extend_from_slice(&(spec.argv.len() as u32).to_ne_bytes());
    out.extend_from_slice(&(spec.envp.len() as u32).to_ne_bytes());
    let strings = [spec.cwd, spec.program]
        .into_iter()
        .chain(spec.argv)
        .chain(spec.envp);
    for s in strings {
        out.extend_from_slice(s.as_bytes_with_nul());
    }
    (out.len() <= REQUEST_MAX).then_some(out)
}

/// A request as the launcher reads it: pointers into its own buffers.
pub(super) struct Decoded {
    pub(super) cwd: *const c_char,
    pub(super) program: *const c_char,
    /// Into the pointer buffer: the arguments, a null, the environment, a null.
    pub(super) argv: *const *const c_char,
    pub(super) envp: *const *const c_char,
    pub(super) rlimits: [(libc::__rlimit_resource_t, u64, u64); RLIMITS_MAX],
    pub(super) rlimit_count: usize,
    pub(super) user: Option<(u32, u32)>,
    pub(super) no_new_privs: bool,
    pub(super) cgroup_fds: usize,
    pub(super) fresh_ipc: bool,
    pub(super) keep_cpus: bool,
}

/// Read a request (`bytes`, its strings terminated in place) into
/// `pointers`. `None` when it is malformed. No allocation.
pub(super) fn decode(bytes: &[u8], pointers: &mut [*const c_char]) -> Option<Decoded> {
    let mut at = 0usize;
    let mut word = || -> Option<u32> {
        let w = bytes.get(at..at + 4)?;
        at += 4;
        Some(u32::from_ne_bytes([w[0], w[1], w[2], w[3]]))
    };
    if word()? != MAGIC {
        return None;
    }
    let flags = word()?;
    let (uid, gid) = (word()?, word()?);
    let cgroup_fds = word()? as usize;
    let rlimit_count = word()? as usize;
    if rlimit_count > RLIMITS_MAX || cgroup_fds + 3 > FDS_MAX {
        return None;
    }
    let mut rlimits = [(0 as libc::__rlimit_resource_t, 0u64, 0u64); RLIMITS_MAX];
    for limit in rlimits.iter_mut().take(rlimit_count) {
        let r = bytes.get(at..at + 20)?;
        let u64_at = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&r[i..i + 8]);
            u64::from_ne_bytes(b)
        };
        *limit = (
            libc::__rlimit_resource_t::from_ne_bytes([r[0], r[1], r[2], r[3]]),
            u64_at(4),
            u64_at(12),
        );
        at += 20;
    }
    let mut word = || -> Option<u32> {
        let w = bytes.get(at..at + 4)?;
        at += 4;
        Some(u32::from_ne_bytes([w[0], w[1], w[2], w[3]]))
    };
    let argc = word()? as usize;
    let envc = word()? as usize;
    if argc == 0 || argc + envc + 2 > pointers.len() {
        return None;
    }
    let mut string = || -> Option<*const c_char> {
        let rest = bytes.get(at..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        let p = rest.as_ptr().cast::<c_char>();
        at += end + 1;
        Some(p)
    };
    let cwd = string()?;
    let program = string()?;
    for slot in pointers.iter_mut().take(argc) {
        *slot = string()?;
    }
    pointers[argc] = std::ptr::null();
    for slot in pointers.iter_mut().skip(argc + 1).take(envc) {
        *slot = string()?;
    }
    pointers[argc + 1 + envc] = std::ptr::null();
    Some(Decoded {
        cwd,
        program,
        argv: pointers.as_ptr(),
        envp: pointers[argc + 1..].as_ptr(),
        rlimits,
        rlimit_count,
        user: (flags & HAS_USER != 0).then_some((uid, gid)),
        no_new_privs: flags & NO_NEW_PRIVS != 0,
        cgroup_fds,
        fresh_ipc: flags & FRESH_IPC != 0,
        keep_cpus: flags & KEEP_CPUS != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn c(s: &str) -> CString {
        CString::new(s).unwrap()
    }

    /// A request for `program` with `argv` in `cwd` and nothing else.
    fn plain<'a>(program: &'a CString, argv: &'a [CString], cwd: &'a CString) -> Spec<'a> {
        Spec {
            program,
            argv,
            envp: &[],
            cwd,
            rlimits: &[],
            user: None,
            no_new_privs: false,
            cgroup_fds: 0,
            fresh_ipc: false,
            keep_cpus: false,
        }
    }

    #[test]
    fn a_request_reads_back_as_it_was_written() {
        let (program, cwd) = (c("/usr/bin/prog"), c("/tmp/w0"));
        let argv = [c("/usr/bin/prog"), c("-x"), c("")];
        let envp = [c("PATH=/bin"), c("HOME=/tmp/w0")];
        let rlimits = [(libc::RLIMIT_CPU, 2, 3), (libc::RLIMIT_STACK, u64::MAX, 7)];
        let bytes = encode(&Spec {
            program: &program,
            argv: &argv,
            envp: &envp,
            cwd: &cwd,
            rlimits: &rlimits,
            user: Some((61000, 61001)),
            no_new_privs: true,
            cgroup_fds: 3,
            fresh_ipc: true,
            keep_cpus: true,
        })
        .unwrap();
        let mut pointers = vec![std::ptr::null(); POINTERS_MAX];
        let d = decode(&bytes, &mut pointers).unwrap();
        let text = |p: *const c_char| unsafe { CStr::from_ptr(p) }.to_str().unwrap();
        assert_eq!(text(d.cwd), "/tmp/w0");
        assert_eq!(text(d.program), "/usr/bin/prog");
        let list = |mut p: *const *const c_char| {
            let mut v = Vec::new();
            unsafe {
                while !(*p).is_null() {
                    v.push(text(*p).to_string());
                    p = p.add(1);
                }
            }
            v
        };
        assert_eq!(list(d.argv), ["/usr/bin/prog", "-x", ""]);
        assert_eq!(list(d.envp), ["PATH=/bin", "HOME=/tmp/w0"]);
        assert_eq!(&d.rlimits[..d.rlimit_count], &rlimits);
        assert_eq!(d.user, Some((61000, 61001)));
        assert!(d.no_new_privs);
        assert_eq!(d.cgroup_fds, 3);
        assert!(d.fresh_ipc);
        assert!(d.keep_cpus);
    }

    #[test]
    fn truncated_or_foreign_requests_are_refused() {
        let (program, cwd) = (c("/p"), c("/"));
        let argv = [c("/p")];
        let bytes = encode(&plain(&program, &argv, &cwd)).unwrap();
        let mut pointers = vec![std::ptr::null(); POINTERS_MAX];
        assert!(decode(&bytes, &mut pointers).is_some());
        for cut in 0..bytes.len() {
            assert!(
                decode(&bytes[..cut], &mut pointers).is_none(),
                "cut at {cut}"
            );
        }
        let mut foreign = bytes.clone();
        foreign[0] ^= 1;
        assert!(decode(&foreign, &mut pointers).is_none());
        let mut few = vec![std::ptr::null(); 2];
        assert!(decode(&bytes, &mut few).is_none());
    }

    #[test]
    fn what_does_not_fit_is_not_encoded() {
        let (program, cwd) = (c("/p"), c("/"));
        let big = [c(&"x".repeat(REQUEST_MAX))];
        assert!(encode(&plain(&program, &big, &cwd)).is_none());
    }
}
