package gdfile_test

import (
	"fmt"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// A save file of two values, encrypted with a password as
// FileAccess.open_encrypted_with_pass writes it, and read back.
func Example() {
	key := gdfile.PasswordKey("my secret")
	save := &gdfile.File{
		Container: gdfile.Container{Format: gdfile.Encrypted},
		Values:    []variant.Value{variant.String("slot 1"), variant.Int(42)},
	}
	data, err := save.Encode(gdfile.Options{Key: &key})
	if err != nil {
		panic(err)
	}

	f, err := gdfile.Read(data, gdfile.Options{Key: &key})
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Container, f.Godot, f.Values)

	wrong := gdfile.PasswordKey("guess")
	_, err = gdfile.Read(data, gdfile.Options{Key: &wrong})
	fmt.Println(err)
	// Output:
	// encrypted (Godot 4, AES-256-CFB) Godot 4 ["slot 1" 42]
	// gdfile: encrypted file at byte 0: wrong password or key, or a damaged file (the MD5 of the decrypted data does not match)
}

// Unwrap and Wrap deal with the containers alone: here a compressed file
// as FileAccess.open_compressed writes it with COMPRESSION_ZSTD.
func ExampleWrap() {
	data, err := gdfile.Wrap([]byte("any bytes at all"), gdfile.Container{Format: gdfile.Compressed, Compression: gdfile.Zstd}, gdfile.Options{})
	if err != nil {
		panic(err)
	}
	plain, c, err := gdfile.Unwrap(data, gdfile.Options{})
	fmt.Printf("%s %q %q %v\n", data[:4], plain, c, err)
	// Output: GCPF "any bytes at all" "compressed (zstd, 4096-byte blocks)" <nil>
}
