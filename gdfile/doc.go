// Package gdfile reads and writes the files Godot's FileAccess writes: one
// or several values stored with store_var, as they are or inside one of
// the engine's containers.
//
//	container    Godot API                                     magic
//	plain        FileAccess.open / File.open                   none
//	encrypted    open_encrypted / open_encrypted_with_pass     "GDEC"
//	compressed   open_compressed                               "GCPF"
//
// Encrypted files hold an MD5 of the plaintext, its length and the
// plaintext encrypted with AES-256: in Godot 3 in ECB mode after a mode
// word, in Godot 4 in CFB mode with a random IV. A password is turned into
// the key as the engine does (PasswordKey). A wrong password or key, or a
// damaged file, fails the MD5 check with ErrWrongKey: it never yields
// garbage.
//
// Compressed files cut the data into blocks (4096 bytes) compressed one by
// one with FastLZ, Deflate (zlib), Zstandard or gzip; Godot 4 also reads
// Brotli, which it cannot write, and neither can this package. Both
// families use the same layout.
//
// Unwrap and Wrap deal with the containers alone; Read and File.Encode
// also split the data into store_var values and decode or encode them with
// package variant. The length prefixes of store_var follow the file's
// big_endian setting (Godot 3: endian_swap), the values stay
// little-endian.
//
// # Limits
//
// Nothing in a file makes the readers allocate more than the data actually
// present can produce: the ciphertext must be there before it is
// decrypted, decompressed blocks are checked against the block size as
// they come out, and the whole decompressed size is capped by
// Options.MaxSize (DefaultMaxSize, 64 MiB, unless set), so a small
// compressed file claiming gigabytes fails fast.
package gdfile
