// Package gdfile reads and writes the files Godot's FileAccess writes: one
// or several values stored with store_var, as they are or inside one of
// the engine's containers. Limits: a file holds at most Options.MaxSize
// bytes of data (16 MiB by default) and Options.MaxValues values; Brotli
// compressed files are read, not written (the engine cannot write them
// either); a file written with other FileAccess calls (store_32,
// store_string, store_line, …) is not a sequence of store_var values and
// does not read; resources (.res, .tres), scenes and packs are other
// formats (packages resource and pck).
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
// present can produce, and memory stays within two documented bounds,
// whatever the container:
//
//   - Options.MaxSize (DefaultMaxSize, 16 MiB, unless set) caps the data
//     a file holds after decryption or decompression. A compressed file
//     claiming more fails from its header, before any block is inflated;
//     a plain or encrypted one from its size. Decompression grows its
//     output as the data really comes out (at most twice the data's size
//     allocated in all). ReadAll reads no more than Options.InputLimit
//     bytes of a file.
//   - Options.MaxValues (MaxSize / ValuesPerByte, a million values by
//     default) caps the values Read decodes from a file in all: every
//     store_var value and everything in it that becomes a Value or a
//     string. Each costs some tens of bytes of memory however few bytes it
//     takes in the file (a Nil takes 4), so without this bound 44 MB of
//     decompressed data, from a 5 KB Zstandard file, decoded into more
//     than a gigabyte. More values fail with ErrTooLarge before they are
//     allocated.
//
// Read allocates less than 3 × MaxSize + 128 bytes × MaxValues in all
// (measured for the shapes that cost the most per byte, in
// bomb_test.go), about 180 MB with the defaults; errors name the limit
// that was hit and the option that raises it.
package gdfile
