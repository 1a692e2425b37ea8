package gdfile

import (
	"bytes"
	"errors"
	"testing"
)

func TestSealedRoundTrip(t *testing.T) {
	var key Key
	key[3] = 7
	for _, n := range []int{0, 1, 15, 16, 17, 100} {
		plain := bytes.Repeat([]byte{byte(n)}, n)
		block, err := AppendSealed(nil, plain, key, nil)
		if err != nil {
			t.Fatal(err)
		}
		if uint64(len(block)) != SealedSize(uint64(n)) {
			t.Fatalf("%d bytes sealed into %d, SealedSize says %d", n, len(block), SealedSize(uint64(n)))
		}
		got, err := OpenSealed(append(block, 1, 2, 3), key)
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%d bytes: got %x, %v", n, got, err)
		}
		wrong := key
		wrong[0] ^= 1
		if _, err := OpenSealed(block, wrong); n > 0 && !errors.Is(err, ErrWrongKey) { // nothing tells a key on no data
			t.Fatalf("wrong key: %v", err)
		}
		if _, err := OpenSealed(block[:len(block)-1], key); n > 0 && !errors.Is(err, ErrTruncated) {
			t.Fatalf("cut block: %v", err)
		}
	}
}

// A sealed block is the Godot 4 encrypted file without its magic.
func TestSealedIsEncryptedWithoutMagic(t *testing.T) {
	var key Key
	iv := bytes.Repeat([]byte{9}, 16)
	file, err := Wrap([]byte("hello"), Container{Format: Encrypted, IV: iv}, Options{Key: &key})
	if err != nil {
		t.Fatal(err)
	}
	block, err := AppendSealed(nil, []byte("hello"), key, iv)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(file[4:], block) {
		t.Fatalf("sealed %x\nfile   %x", block, file)
	}
}
