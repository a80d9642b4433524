// Inline assembly declaring its own registers in braces, without '%',
// with the same names in two blocks: each block's are its own.
extern "C" __global__ void inline_asm(const int *in, int *out)
{
    int v = in[threadIdx.x], r1, r2;
    asm("{\n\t"
        ".reg .s32 r0;\n\t"
        ".reg .pred p;\n\t"
        "add.s32 r0, %1, 1;\n\t"
        "setp.gt.s32 p, r0, 10;\n\t"
        "selp.s32 %0, r0, 10, p;\n\t"
        "}"
        : "=r"(r1) : "r"(v));
    asm("{\n\t"
        ".reg .s32 r0;\n\t"
        ".reg .pred p;\n\t"
        "mul.lo.s32 r0, %1, 3;\n\t"
        "setp.lt.s32 p, r0, 0;\n\t"
        "@p neg.s32 r0, r0;\n\t"
        "mov.s32 %0, r0;\n\t"
        "}"
        : "=r"(r2) : "r"(r1));
    out[threadIdx.x] = r2;
}
