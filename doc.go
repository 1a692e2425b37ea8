// Package gdvar is the Go implementation of Godot Engine's binary Variant
// serialization: the bytes behind var_to_bytes / bytes_to_var,
// FileAccess.store_var / get_var, StreamPeer.put_var / get_var and
// PacketPeer.put_var / get_var, for Godot 4.0–4.6 and Godot 3.0–3.6, in both
// single and double precision.
//
// The work is split into packages, each usable on its own:
//
//   - [github.com/gdvar/gdvar/wire]: the low-level primitives of the
//     encoding (header word, padded strings, bulk packed arrays).
//   - [github.com/gdvar/gdvar/variant]: the Variant value model and the
//     binary codec, with the engines' exact encoding choices and decoding
//     decisions.
//   - [github.com/gdvar/gdvar/gdtext]: Godot's text form of Variants
//     (var_to_str / str_to_var, var2str / str2var).
//   - cmd/gdvar: the gdvar command.
package gdvar
