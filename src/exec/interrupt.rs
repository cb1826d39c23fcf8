//! Ctrl-C and SIGTERM: a flag the orchestration polls before launching a
//! case, and a pipe that becomes readable so that every runner's event loop
//! wakes up at once, kills its program's group and reports "interrupted".

use std::os::fd::OwnedFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub struct Interrupt {
    flag: Arc<AtomicBool>,
    read: Arc<OwnedFd>,
    ids: Vec<signal_hook::SigId>,
}

impl Interrupt {
    /// Catch SIGINT and SIGTERM until dropped.
    pub fn install() -> std::io::Result<Interrupt> {
        let flag = Arc::new(AtomicBool::new(false));
        let (read, write) = rustix::pipe::pipe_with(
            rustix::pipe::PipeFlags::CLOEXEC | rustix::pipe::PipeFlags::NONBLOCK,
        )?;
        let write = Arc::new(write);
        let mut ids = Vec::new();
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            ids.push(signal_hook::flag::register(signal, Arc::clone(&flag))?);
            let fd = rustix::io::dup(write.as_ref())?;
            rustix::io::fcntl_setfd(&fd, rustix::io::FdFlags::CLOEXEC)?;
            ids.push(signal_hook::low_level::pipe::register(signal, fd)?);
        }
        Ok(Interrupt {
            flag,
            read: Arc::new(read),
            ids,
        })
    }

    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Readable once a signal arrived.
    pub fn fd(&self) -> Arc<OwnedFd> {
        Arc::clone(&self.read)
    }

    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

impl Drop for Interrupt {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}
