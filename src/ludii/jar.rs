//! A minimal reader for the zip archives Ludii ships (`Ludii-x.y.jar`, `ludii-res.jar`): the central directory, stored and deflated entries, with size budgets.
//!
//! Only what reading Ludii's defines and library needs: no encryption, no zip64, no spanning.
//! Works on any `Read + Seek` source (the CLI passes the open file): an archive is read from
//! its end — the end record, then the central directory — so a huge file that is not a zip
//! costs one read of its last 64 KiB. Entries whose data would overlap another entry's (the
//! "zip bomb" of many entries over one deflate stream) are refused when the directory is read,
//! and each entry is inflated at most to the size it declares, so the bytes a caller counts
//! against its budget are the bytes really produced.

use flate2::read::DeflateDecoder;
use std::io::{Read, Seek, SeekFrom};

/// One entry of the central directory.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Path inside the archive, `/`-separated.
    pub name: String,
    method: u16,
    compressed: u64,
    /// Size once extracted, as the directory declares it (reading checks it).
    pub size: usize,
    header: u64,
    /// Where the next entry (or the central directory) starts: this entry's data must end there.
    end: u64,
}

/// Largest number of entries read from one archive.
pub const MAX_ENTRIES: usize = 200_000;
/// Largest extracted size of one entry.
pub const MAX_ENTRY_SIZE: usize = 16 << 20;
/// Largest central directory read (each entry takes 46 bytes plus its name, extra field and
/// comment; Ludii's own jar has about 2 MB).
pub const MAX_DIRECTORY_BYTES: u64 = 32 << 20;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        b.get(at..at.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn io(e: std::io::Error) -> String {
    format!("cannot read the archive: {e}")
}

/// Reads exactly `len` bytes at `at` (`len` is bounded by the caller).
fn read_at<R: Read + Seek>(r: &mut R, at: u64, len: usize) -> Result<Vec<u8>, String> {
    r.seek(SeekFrom::Start(at)).map_err(io)?;
    let mut v = Vec::with_capacity(len);
    r.by_ref()
        .take(len as u64)
        .read_to_end(&mut v)
        .map_err(io)?;
    if v.len() < len {
        return Err("truncated zip".into());
    }
    Ok(v)
}

/// An open archive: its source and its entries, in directory order.
pub struct Archive<R> {
    src: R,
    entries: Vec<Entry>,
}

impl<R: Read + Seek> Archive<R> {
    /// Reads the end record and the central directory of `src`; refuses an archive whose
    /// entries overlap, point outside the data, or are too many.
    pub fn open(mut src: R) -> Result<Archive<R>, String> {
        let len = src.seek(SeekFrom::End(0)).map_err(io)?;
        // The end-of-central-directory record is in the last 64 KiB + 22 bytes.
        let tail_at = len.saturating_sub(65_536 + 22);
        let tail = read_at(&mut src, tail_at, (len - tail_at) as usize)?;
        let rel = (0..tail.len().saturating_sub(21))
            .rev()
            .find(|&i| u32_at(&tail, i) == Some(0x0605_4b50))
            .ok_or("not a zip archive (no end of central directory)")?;
        let eocd = tail_at + rel as u64;
        let count = u16_at(&tail, rel + 10).ok_or("truncated zip")? as usize;
        let cd_len = u64::from(u32_at(&tail, rel + 12).ok_or("truncated zip")?);
        let cd_at = u64::from(u32_at(&tail, rel + 16).ok_or("truncated zip")?);
        if count > MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} entries"));
        }
        if cd_len > MAX_DIRECTORY_BYTES {
            return Err(format!(
                "a central directory of more than {MAX_DIRECTORY_BYTES} bytes"
            ));
        }
        if cd_at.saturating_add(cd_len) > eocd {
            return Err("the central directory overlaps its end record".into());
        }
        let cd = read_at(&mut src, cd_at, cd_len as usize)?;
        let mut entries = directory(&cd, count)?;
        no_overlaps(&mut entries, cd_at)?;
        Ok(Archive { src, entries })
    }

    /// The entries, in directory order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The extracted bytes of `e`, refused when they would pass `budget` bytes or
    /// [`MAX_ENTRY_SIZE`], or differ in length from the size the directory declares. At most
    /// one byte more than the declared size is ever inflated.
    pub fn read(&mut self, e: &Entry, budget: usize) -> Result<Vec<u8>, String> {
        let cap = budget.min(MAX_ENTRY_SIZE);
        if e.size > cap {
            return Err(format!("{}: larger than {cap} bytes", e.name));
        }
        let local = read_at(&mut self.src, e.header, 30)?;
        if u32_at(&local, 0) != Some(0x0403_4b50) {
            return Err(format!("{}: bad local header", e.name));
        }
        let name_len = u64::from(u16_at(&local, 26).ok_or("truncated zip")?);
        let extra = u64::from(u16_at(&local, 28).ok_or("truncated zip")?);
        let start = e.header + 30 + name_len + extra;
        if start.saturating_add(e.compressed) > e.end {
            return Err(format!(
                "{}: its data overlaps the next entry or the central directory",
                e.name
            ));
        }
        self.src.seek(SeekFrom::Start(start)).map_err(io)?;
        let data = (&mut self.src).take(e.compressed);
        let mut out = Vec::with_capacity(e.size);
        // Never more than one byte past the declared size (itself within the cap).
        let limit = e.size as u64 + 1;
        let got = match e.method {
            0 => data.take(limit).read_to_end(&mut out),
            8 => DeflateDecoder::new(data).take(limit).read_to_end(&mut out),
            m => {
                return Err(format!(
                    "{}: compression method {m} is not supported",
                    e.name
                ));
            }
        };
        got.map_err(|err| format!("{}: {err}", e.name))?;
        if out.len() > cap {
            return Err(format!("{}: larger than {cap} bytes", e.name));
        }
        if out.len() != e.size {
            return Err(format!(
                "{}: extracts to {} bytes, not the {} its directory entry declares",
                e.name,
                out.len(),
                e.size
            ));
        }
        Ok(out)
    }
}

/// The `count` entries of a central directory's bytes.
fn directory(b: &[u8], count: usize) -> Result<Vec<Entry>, String> {
    let mut out = Vec::with_capacity(count.min(b.len() / 46));
    let mut at = 0usize;
    for _ in 0..count {
        if u32_at(b, at) != Some(0x0201_4b50) {
            return Err(format!("bad central directory entry {}", out.len() + 1));
        }
        let field = |o: usize| u32_at(b, at + o).map(u64::from);
        let method = u16_at(b, at + 10).ok_or("truncated zip")?;
        let compressed = field(20).ok_or("truncated zip")?;
        let size = field(24).ok_or("truncated zip")? as usize;
        let name_len = u16_at(b, at + 28).ok_or("truncated zip")? as usize;
        let extra = u16_at(b, at + 30).ok_or("truncated zip")? as usize;
        let comment = u16_at(b, at + 32).ok_or("truncated zip")? as usize;
        let header = field(42).ok_or("truncated zip")?;
        let name = b.get(at + 46..at + 46 + name_len).ok_or("truncated zip")?;
        out.push(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            method,
            compressed,
            size,
            header,
            end: 0,
        });
        at += 46 + name_len + extra + comment;
    }
    Ok(out)
}

/// Gives each entry the end of its room (the next local header, or the central directory)
/// and refuses entries that share a local header or whose data cannot fit in their room.
fn no_overlaps(entries: &mut [Entry], cd_at: u64) -> Result<(), String> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&i| entries[i].header);
    for (k, &i) in order.iter().enumerate() {
        let end = order.get(k + 1).map_or(cd_at, |&j| entries[j].header);
        let e = &mut entries[i];
        // The local header alone is 30 bytes; the data follows it.
        if e.header.saturating_add(30).saturating_add(e.compressed) > end {
            return Err(format!(
                "entry {:?} overlaps the next entry or the central directory",
                e.name
            ));
        }
        e.end = end;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(b: &[u8]) -> Result<Archive<std::io::Cursor<&[u8]>>, String> {
        Archive::open(std::io::Cursor::new(b))
    }

    /// A one-entry stored zip, written by hand.
    fn stored(name: &str, data: &[u8]) -> Vec<u8> {
        let mut z = Vec::new();
        let local = |z: &mut Vec<u8>| {
            z.extend(0x0403_4b50u32.to_le_bytes());
            z.extend([20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            z.extend((data.len() as u32).to_le_bytes());
            z.extend((data.len() as u32).to_le_bytes());
            z.extend((name.len() as u16).to_le_bytes());
            z.extend([0, 0]);
            z.extend(name.as_bytes());
            z.extend(data);
        };
        local(&mut z);
        let cd = z.len();
        z.extend(0x0201_4b50u32.to_le_bytes());
        z.extend([20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        z.extend((data.len() as u32).to_le_bytes());
        z.extend((data.len() as u32).to_le_bytes());
        z.extend((name.len() as u16).to_le_bytes());
        z.extend([0; 12]);
        z.extend(0u32.to_le_bytes());
        z.extend(name.as_bytes());
        let cd_len = z.len() - cd;
        z.extend(0x0605_4b50u32.to_le_bytes());
        z.extend([0, 0, 0, 0, 1, 0, 1, 0]);
        z.extend((cd_len as u32).to_le_bytes());
        z.extend((cd as u32).to_le_bytes());
        z.extend([0, 0]);
        z
    }

    #[test]
    fn reads_a_stored_entry_and_refuses_garbage() {
        let z = stored("def/A.def", b"(define \"A\" 1)");
        let mut a = open(&z).unwrap();
        let e = a.entries().to_vec();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].name, "def/A.def");
        assert_eq!(a.read(&e[0], usize::MAX).unwrap(), b"(define \"A\" 1)");
        // The budget is checked against the bytes read.
        assert!(a.read(&e[0], 4).unwrap_err().contains("larger than 4"));
        assert!(open(b"not a zip at all").is_err());
        for cut in [10, z.len() / 2, z.len() - 5] {
            // A truncated archive loses its end record: refused, never a panic.
            assert!(open(&z[..cut]).is_err(), "cut at {cut}");
        }
        // A central directory pointing past the data: refused when the directory is read.
        let mut bad = z.clone();
        let cd = bad.len() - 22 - 46 - "def/A.def".len();
        bad[cd + 42..cd + 46].copy_from_slice(&1_000_000u32.to_le_bytes());
        assert!(open(&bad).is_err());
    }

    /// One stored entry listed `n` times in the directory, every listing at the same data.
    fn overlapping(n: usize) -> Vec<u8> {
        let z = stored("def/A.def", b"(define \"A\" 1)");
        let cd = z.len() - 22 - 46 - "def/A.def".len();
        let one = z[cd..z.len() - 22].to_vec();
        let mut out = z[..cd].to_vec();
        for _ in 0..n {
            out.extend(&one);
        }
        let cd_len = (out.len() - cd) as u32;
        out.extend(0x0605_4b50u32.to_le_bytes());
        out.extend([0, 0, 0, 0]);
        out.extend((n as u16).to_le_bytes());
        out.extend((n as u16).to_le_bytes());
        out.extend(cd_len.to_le_bytes());
        out.extend((cd as u32).to_le_bytes());
        out.extend([0, 0]);
        out
    }

    #[test]
    fn overlapping_entries_and_false_sizes_are_refused() {
        assert_eq!(open(&overlapping(1)).unwrap().entries().len(), 1);
        let err = open(&overlapping(2)).err().unwrap();
        assert!(err.contains("overlaps"), "{err}");
        // A declared size smaller than the data: the read stops one byte past it and fails.
        let mut z = stored("def/A.def", b"(define \"A\" 1)");
        let cd = z.len() - 22 - 46 - "def/A.def".len();
        z[cd + 24..cd + 28].copy_from_slice(&3u32.to_le_bytes());
        let mut a = open(&z).unwrap();
        let e = a.entries()[0].clone();
        let err = a.read(&e, usize::MAX).unwrap_err();
        assert!(err.contains("not the 3"), "{err}");
    }
}
