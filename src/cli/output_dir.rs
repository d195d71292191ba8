//! An output folder held open for a whole run: every write below it goes through the handle taken when the run started, so a folder renamed or replaced by a link meanwhile cannot redirect the writes.
//!
//! On Unix the folder is opened once; a file below it is written with `openat`, `mkdirat`,
//! `linkat` and `renameat` relative to that handle, each folder on the way opened with
//! `O_NOFOLLOW` (a symbolic link there is refused, as `catalogue` refuses it), and the
//! temporary file too. The rules of [`super::output::write`] hold unchanged: a temporary
//! `.NAME.PID.tmp` renamed into place when replacing, else the final name claimed exclusively
//! with a hard link. Elsewhere the folder's path is checked again before each write.

use super::display_path;
use std::path::{Component, Path, PathBuf};

/// An output folder opened for a run (see the module documentation).
pub struct OutputDir {
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

impl OutputDir {
    /// Opens the folder `path` (after [`super::output::usable_dir`] made sure it exists and is
    /// writable). The folder the user named may itself be reached through a link: that is
    /// their choice; what lies below it is not followed.
    pub fn open(path: &Path) -> Result<OutputDir, String> {
        #[cfg(unix)]
        {
            let fd = at::open_root(path).map_err(|e| {
                format!("cannot open the output folder {}: {e}", display_path(path))
            })?;
            Ok(OutputDir {
                path: path.to_path_buf(),
                fd,
            })
        }
        #[cfg(not(unix))]
        Ok(OutputDir {
            path: path.to_path_buf(),
        })
    }

    /// Writes `bytes` to `path`, a file below this folder (`replace`: as for
    /// [`super::output::write`]), relative to the handle. A path that is not below the folder
    /// (standard output, a file named on its own) is written by [`super::output::write`].
    pub fn write(&self, path: &Path, bytes: &[u8], replace: bool) -> Result<(), String> {
        let Some(rel) = self.relative(path) else {
            return super::output::write(path, bytes, replace);
        };
        #[cfg(unix)]
        {
            at::write(&self.fd, &rel, bytes, replace).map_err(|e| match e {
                at::Failure::Link(folder) => format!(
                    "{} is a symbolic link; refusing to write through it",
                    display_path(&self.path.join(folder))
                ),
                at::Failure::NotFolder(folder) => format!(
                    "{} exists and is not a folder; refusing to replace it",
                    display_path(&self.path.join(folder))
                ),
                at::Failure::Io(e) if e.kind() == std::io::ErrorKind::AlreadyExists => format!(
                    "{} was created by someone else meanwhile (another run?); left as it is",
                    display_path(path)
                ),
                at::Failure::Io(e) => format!("cannot write {}: {e}", display_path(path)),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = rel;
            match std::fs::symlink_metadata(&self.path) {
                Ok(m) if m.is_dir() => super::output::write(path, bytes, replace),
                _ => Err(format!(
                    "the output folder {} was moved or replaced during the run; nothing more is written",
                    display_path(&self.path)
                )),
            }
        }
    }

    /// What stands at `path` (not following a link there), seen through the handle when `path`
    /// is below this folder; `None` when nothing does (or a folder on the way is a link, which
    /// [`OutputDir::write`] then refuses).
    pub fn metadata(&self, path: &Path) -> Option<std::fs::Metadata> {
        #[cfg(target_os = "linux")]
        if let Some(rel) = self.relative(path) {
            return at::metadata(&self.fd, &rel);
        }
        std::fs::symlink_metadata(path).ok()
    }

    /// `path` below this folder as plain components, or `None`.
    fn relative(&self, path: &Path) -> Option<Vec<std::ffi::OsString>> {
        if super::output::is_stdout(path) {
            return None;
        }
        let rel = match path.strip_prefix(&self.path) {
            Ok(r) => r,
            // `-o x.yaml`: the folder is `.`, the path a bare relative name.
            Err(_) if self.path == Path::new(".") && path.is_relative() => path,
            Err(_) => return None,
        };
        let parts: Vec<_> = rel
            .components()
            .filter(|c| *c != Component::CurDir)
            .map(|c| match c {
                Component::Normal(n) => Some(n.to_os_string()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        (!parts.is_empty()).then_some(parts)
    }
}

/// The `*at` system calls of [`OutputDir::write`].
#[cfg(unix)]
mod at {
    use std::ffi::{CString, OsStr, OsString};
    use std::io::{self, Write as _};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    /// Why a write failed: a folder on the way is a link, or not a folder, or an I/O error.
    pub enum Failure {
        Link(PathBuf),
        NotFolder(PathBuf),
        Io(io::Error),
    }

    fn cstr(s: &OsStr) -> io::Result<CString> {
        CString::new(s.as_bytes()).map_err(|_| io::ErrorKind::InvalidInput.into())
    }

    /// `r`, or the system's error when it is negative.
    fn check(r: libc::c_int) -> io::Result<libc::c_int> {
        if r < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(r)
        }
    }

    /// Takes ownership of the descriptor `fd` that a successful call returned.
    fn owned(fd: libc::c_int) -> OwnedFd {
        // SAFETY: `fd` was just returned by a successful open and is owned by no one else.
        unsafe { OwnedFd::from_raw_fd(fd) }
    }

    const DIR_FLAGS: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;

    pub fn open_root(path: &Path) -> io::Result<OwnedFd> {
        let c = cstr(path.as_os_str())?;
        // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
        check(unsafe { libc::open(c.as_ptr(), DIR_FLAGS) }).map(owned)
    }

    /// Opens the folder `name` in `dir`, creating it when missing, never through a link.
    fn open_dir(dir: RawFd, name: &OsStr) -> io::Result<OwnedFd> {
        let c = cstr(name)?;
        let flags = DIR_FLAGS | libc::O_NOFOLLOW;
        // SAFETY (all three calls): `c` is a valid NUL-terminated name that outlives the call
        // and `dir` an open descriptor.
        let first = unsafe { libc::openat(dir, c.as_ptr(), flags) };
        if first >= 0 {
            return Ok(owned(first));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::NotFound {
            return Err(e);
        }
        if unsafe { libc::mkdirat(dir, c.as_ptr(), 0o777) } < 0 {
            let e = io::Error::last_os_error();
            // Another thread of this run made it meanwhile.
            if e.kind() != io::ErrorKind::AlreadyExists {
                return Err(e);
            }
        }
        check(unsafe { libc::openat(dir, c.as_ptr(), flags) }).map(owned)
    }

    /// Writes `bytes` to `parts` (folders, then the file name) below `root`.
    pub fn write(
        root: &OwnedFd,
        parts: &[OsString],
        bytes: &[u8],
        replace: bool,
    ) -> Result<(), Failure> {
        let (name, folders) = parts.split_last().expect("a file name");
        let mut held: Option<OwnedFd> = None;
        let mut walked = PathBuf::new();
        for f in folders {
            walked.push(f);
            let dir = held.as_ref().unwrap_or(root).as_raw_fd();
            held = Some(open_dir(dir, f).map_err(|e| match e.raw_os_error() {
                // `O_NOFOLLOW` on a link gives ELOOP; on some systems ENOTDIR, so look.
                Some(libc::ELOOP) => Failure::Link(walked.clone()),
                Some(libc::ENOTDIR) if is_link(dir, f) => Failure::Link(walked.clone()),
                Some(libc::ENOTDIR) => Failure::NotFolder(walked.clone()),
                _ => Failure::Io(e),
            })?);
        }
        let dir = held.as_ref().unwrap_or(root).as_raw_fd();
        write_via_temp(dir, name, bytes, replace).map_err(Failure::Io)
    }

    /// What stands at `parts` below `root`, not following links (`O_PATH`: a FIFO or device is
    /// not opened for reading); `None` when nothing does or a folder on the way is a link.
    #[cfg(target_os = "linux")]
    pub fn metadata(root: &OwnedFd, parts: &[OsString]) -> Option<std::fs::Metadata> {
        let (name, folders) = parts.split_last()?;
        let mut held: Option<OwnedFd> = None;
        for f in folders {
            let dir = held.as_ref().unwrap_or(root).as_raw_fd();
            let c = cstr(f).ok()?;
            let flags = DIR_FLAGS | libc::O_NOFOLLOW;
            // SAFETY: `c` outlives the call, `dir` is open.
            held = Some(owned(
                check(unsafe { libc::openat(dir, c.as_ptr(), flags) }).ok()?,
            ));
        }
        let dir = held.as_ref().unwrap_or(root).as_raw_fd();
        let c = cstr(name).ok()?;
        let flags = libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        // SAFETY: as above.
        let fd = check(unsafe { libc::openat(dir, c.as_ptr(), flags) }).ok()?;
        std::fs::File::from(owned(fd)).metadata().ok()
    }

    /// The mode bits of the regular file `name` in `dir`, if there is one.
    fn mode_of(dir: RawFd, name: &CString) -> Option<libc::mode_t> {
        // SAFETY: `st` is written by the call before it is read; `name` outlives the call.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::fstatat(dir, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) };
        (r == 0 && st.st_mode & libc::S_IFMT == libc::S_IFREG).then_some(st.st_mode & 0o7777)
    }

    fn write_via_temp(dir: RawFd, name: &OsStr, bytes: &[u8], replace: bool) -> io::Result<()> {
        let mut tmp = OsString::from(".");
        tmp.push(name);
        tmp.push(format!(".{}.tmp", std::process::id()));
        let (name, tmp) = (cstr(name)?, cstr(&tmp)?);
        let old = mode_of(dir, &name).filter(|_| replace);
        let flags =
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        // SAFETY (every call below): the names are valid NUL-terminated strings that outlive
        // the calls, `dir` an open descriptor.
        let fd = check(unsafe { libc::openat(dir, tmp.as_ptr(), flags, 0o666 as libc::c_uint) })?;
        let result = (|| {
            let mut f = std::fs::File::from(owned(fd));
            f.write_all(bytes)?;
            if let Some(mode) = old {
                check(unsafe { libc::fchmod(f.as_raw_fd(), mode) })?;
                f.sync_all()?;
            }
            drop(f);
            if replace {
                return check(unsafe { libc::renameat(dir, tmp.as_ptr(), dir, name.as_ptr()) })
                    .map(drop);
            }
            match check(unsafe { libc::linkat(dir, tmp.as_ptr(), dir, name.as_ptr(), 0) }) {
                Ok(_) => check(unsafe { libc::unlinkat(dir, tmp.as_ptr(), 0) }).map(drop),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(e),
                // No hard links on this file system: check, then rename.
                Err(_) if exists(dir, &name) => Err(io::ErrorKind::AlreadyExists.into()),
                Err(_) => check(unsafe { libc::renameat(dir, tmp.as_ptr(), dir, name.as_ptr()) })
                    .map(drop),
            }
        })();
        if result.is_err() {
            unsafe { libc::unlinkat(dir, tmp.as_ptr(), 0) };
        }
        result
    }

    /// Whether `name` in `dir` is a symbolic link.
    fn is_link(dir: RawFd, name: &OsStr) -> bool {
        let Ok(c) = cstr(name) else { return false };
        // SAFETY: as in `mode_of`.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::fstatat(dir, c.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) };
        r == 0 && st.st_mode & libc::S_IFMT == libc::S_IFLNK
    }

    fn exists(dir: RawFd, name: &CString) -> bool {
        // SAFETY: as in `mode_of`.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        unsafe { libc::fstatat(dir, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) == 0 }
    }
}
