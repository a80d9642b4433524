/* The instruction table (insns.def) as arrays, and the facts about PTX's
 * types that the parser, the arithmetic and the executor share. */
#include "model/ptx/ptx.h"

const char *const ptx_opcode_name[PTX_I_COUNT] = {
#define PTX_INSN(id, name, cls) [PTX_I_##id] = name,
#include "model/ptx/insns.def"
#undef PTX_INSN
};

const unsigned char ptx_opcode_class[PTX_I_COUNT] = {
#define PTX_INSN(id, name, cls) [PTX_I_##id] = PTX_CLASS_##cls,
#include "model/ptx/insns.def"
#undef PTX_INSN
};

static const struct {
    const char *name;
    unsigned char bytes;
} type_info[PTX_T_COUNT] = {
    [PTX_T_NONE] = {"", 0},          [PTX_T_PRED] = {".pred", 1},
    [PTX_T_B8] = {".b8", 1},         [PTX_T_B16] = {".b16", 2},
    [PTX_T_B32] = {".b32", 4},       [PTX_T_B64] = {".b64", 8},
    [PTX_T_B128] = {".b128", 16},    [PTX_T_U8] = {".u8", 1},
    [PTX_T_U16] = {".u16", 2},       [PTX_T_U32] = {".u32", 4},
    [PTX_T_U64] = {".u64", 8},       [PTX_T_S8] = {".s8", 1},
    [PTX_T_S16] = {".s16", 2},       [PTX_T_S32] = {".s32", 4},
    [PTX_T_S64] = {".s64", 8},       [PTX_T_F16] = {".f16", 2},
    [PTX_T_F16X2] = {".f16x2", 4},   [PTX_T_BF16] = {".bf16", 2},
    [PTX_T_BF16X2] = {".bf16x2", 4}, [PTX_T_F32] = {".f32", 4},
    [PTX_T_F64] = {".f64", 8},
};

unsigned ptx_type_bytes(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].bytes : 0;
}

bool ptx_type_signed(ptx_type t)
{
    return t >= PTX_T_S8 && t <= PTX_T_S64;
}

bool ptx_type_float(ptx_type t)
{
    return t >= PTX_T_F16 && t <= PTX_T_F64;
}

const char *ptx_type_name(ptx_type t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].name : "?";
}
