//! A comment-preserving ZRF formatter on the lossless token layer (filled in below).
