#include "textflag.h"

// Each macro handles 8 lanes (16 bytes) at byte offset off.

#define ADDSUB(off) MOVOU off(SI), X0; MOVOU off(AX), X1; PADDW X1, X0; MOVOU off(BX), X2; PSUBW X2, X0; MOVOU X0, off(DI)

// func addSubRow(dst, src, a, b *[64]int16)
TEXT ·addSubRow(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ a+16(FP), AX
	MOVQ b+24(FP), BX
	ADDSUB(0)
	ADDSUB(16)
	ADDSUB(32)
	ADDSUB(48)
	ADDSUB(64)
	ADDSUB(80)
	ADDSUB(96)
	ADDSUB(112)
	RET

#define ADD(off) MOVOU off(DI), X0; MOVOU off(SI), X1; PADDW X1, X0; MOVOU X0, off(DI)

// func addRow(v, w *[64]int16)
TEXT ·addRow(SB), NOSPLIT, $0-16
	MOVQ v+0(FP), DI
	MOVQ w+8(FP), SI
	ADD(0)
	ADD(16)
	ADD(32)
	ADD(48)
	ADD(64)
	ADD(80)
	ADD(96)
	ADD(112)
	RET

#define SUB(off) MOVOU off(DI), X0; MOVOU off(SI), X1; PSUBW X1, X0; MOVOU X0, off(DI)

// func subRow(v, w *[64]int16)
TEXT ·subRow(SB), NOSPLIT, $0-16
	MOVQ v+0(FP), DI
	MOVQ w+8(FP), SI
	SUB(0)
	SUB(16)
	SUB(32)
	SUB(48)
	SUB(64)
	SUB(80)
	SUB(96)
	SUB(112)
	RET

// DOT clamps 8 neurons to 0..255 (X7 zero, X6 255s), multiplies them by
// their weights and adds adjacent products into 4 int32 sums in X5.
#define DOT(row, off, woff) MOVOU off(row), X0; PMAXSW X7, X0; PMINSW X6, X0; MOVOU woff(BX), X1; PMADDWL X1, X0; PADDL X0, X5

// func outputSum(us, them *[64]int16, w *[128]int16) int32
TEXT ·outputSum(SB), NOSPLIT, $0-28
	MOVQ us+0(FP), SI
	MOVQ them+8(FP), DX
	MOVQ w+16(FP), BX
	PXOR X7, X7
	PXOR X5, X5
	MOVQ $0x00ff00ff00ff00ff, AX
	MOVQ AX, X6
	PUNPCKLQDQ X6, X6
	DOT(SI, 0, 0)
	DOT(SI, 16, 16)
	DOT(SI, 32, 32)
	DOT(SI, 48, 48)
	DOT(SI, 64, 64)
	DOT(SI, 80, 80)
	DOT(SI, 96, 96)
	DOT(SI, 112, 112)
	DOT(DX, 0, 128)
	DOT(DX, 16, 144)
	DOT(DX, 32, 160)
	DOT(DX, 48, 176)
	DOT(DX, 64, 192)
	DOT(DX, 80, 208)
	DOT(DX, 96, 224)
	DOT(DX, 112, 240)
	PSHUFD $0x4e, X5, X0
	PADDL X0, X5
	PSHUFD $0xb1, X5, X0
	PADDL X0, X5
	MOVQ X5, AX
	MOVL AX, ret+24(FP)
	RET
