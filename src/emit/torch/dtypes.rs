//! fgraph's element types as PyTorch's, and PyTorch's type promotion (`torch.result_type`),
//! so that the emitter knows the dtype each PyTorch call returns and converts it where
//! fgraph's differs (an op's output has its first tensor argument's dtype in fgraph, the
//! promoted one in PyTorch).

use crate::types::Dtype;

/// The PyTorch dtype of an fgraph dtype. `tf32` is stored as `float32` (TF32 is a matmul
/// mode, `torch.set_float32_matmul_precision("high")`); `fp8` is `float8_e4m3fn`.
pub fn torch_name(d: Dtype) -> &'static str {
    match d {
        Dtype::F64 => "torch.float64",
        Dtype::F32 | Dtype::Tf32 => "torch.float32",
        Dtype::Bf16 => "torch.bfloat16",
        Dtype::F16 => "torch.float16",
        Dtype::Fp8 | Dtype::F8e4m3 => "torch.float8_e4m3fn",
        Dtype::F8e5m2 => "torch.float8_e5m2",
        Dtype::I64 => "torch.int64",
        Dtype::I32 => "torch.int32",
        Dtype::I16 => "torch.int16",
        Dtype::I8 => "torch.int8",
        Dtype::U8 => "torch.uint8",
        Dtype::Bool => "torch.bool",
    }
}

/// The dtype PyTorch stores `d` as: equal storages are the same PyTorch dtype.
pub fn storage(d: Dtype) -> Dtype {
    match d {
        Dtype::Tf32 => Dtype::F32,
        Dtype::Fp8 => Dtype::F8e4m3,
        d => d,
    }
}

pub fn is_float(d: Dtype) -> bool {
    matches!(
        d,
        Dtype::F64
            | Dtype::F32
            | Dtype::Tf32
            | Dtype::Bf16
            | Dtype::F16
            | Dtype::Fp8
            | Dtype::F8e4m3
            | Dtype::F8e5m2
    )
}

pub fn is_fp8(d: Dtype) -> bool {
    matches!(d, Dtype::Fp8 | Dtype::F8e4m3 | Dtype::F8e5m2)
}

/// An integer type (not `bool`).
pub fn is_int(d: Dtype) -> bool {
    matches!(
        d,
        Dtype::I64 | Dtype::I32 | Dtype::I16 | Dtype::I8 | Dtype::U8
    )
}

/// The largest value of an integer dtype (`bool`: 1).
pub fn int_max(d: Dtype) -> u64 {
    match d {
        Dtype::I64 => i64::MAX as u64,
        Dtype::I32 => i32::MAX as u64,
        Dtype::I16 => i16::MAX as u64,
        Dtype::I8 => i8::MAX as u64,
        Dtype::U8 => u8::MAX as u64,
        _ => 1,
    }
}

fn width(d: Dtype) -> u64 {
    storage(d).bytes()
}

/// `torch.promote_types(a, b)`. Promotions PyTorch refuses (fp8 with another type) give
/// `float32`, the type the emitter computes such ops in.
pub fn promote(a: Dtype, b: Dtype) -> Dtype {
    let (a, b) = (storage(a), storage(b));
    if a == b {
        return a;
    }
    match (a, b) {
        (Dtype::Bool, x) | (x, Dtype::Bool) => x,
        _ if is_fp8(a) || is_fp8(b) => Dtype::F32,
        _ if is_float(a) && is_float(b) => {
            if matches!(
                (a, b),
                (Dtype::F16, Dtype::Bf16) | (Dtype::Bf16, Dtype::F16)
            ) {
                Dtype::F32
            } else if width(a) >= width(b) {
                a
            } else {
                b
            }
        }
        _ if is_float(a) => a,
        _ if is_float(b) => b,
        // Two integer types.
        (Dtype::U8, Dtype::I8) | (Dtype::I8, Dtype::U8) => Dtype::I16,
        _ if width(a) >= width(b) => a,
        _ => b,
    }
}

/// What an operand of a PyTorch call contributes to its result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A tensor with at least one dimension.
    Tensor(Dtype),
    /// A 0-dim tensor (shape `[]`): it wins only over a lower category.
    ZeroDim(Dtype),
    /// A Python number: an integer counts as `int64`, a float as `float32` (the default
    /// dtype), and only over a lower category.
    Int,
    Float,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    Bool,
    Int,
    Float,
}

fn category(d: Dtype) -> Category {
    if is_float(d) {
        Category::Float
    } else if d == Dtype::Bool {
        Category::Bool
    } else {
        Category::Int
    }
}

/// `combine_categories` of PyTorch's `ResultTypeState`: the higher-priority class wins
/// unless the lower one is of a higher category.
fn combine(higher: Option<Dtype>, lower: Option<Dtype>) -> Option<Dtype> {
    match (higher, lower) {
        (None, l) => l,
        (h, None) => h,
        (Some(h), Some(l)) => Some(if category(h) == Category::Float {
            h
        } else if h == Dtype::Bool || category(l) == Category::Float {
            promote(h, l)
        } else {
            h
        }),
    }
}

/// `torch.result_type` of a call's operands: dimensioned tensors first, then 0-dim tensors,
/// then Python numbers, each class only over a lower category. `float32` for no operand.
pub fn result_type(operands: &[Operand]) -> Dtype {
    let (mut dim, mut zero, mut wrapped) = (None, None, None);
    let fold = |acc: &mut Option<Dtype>, d: Dtype| {
        *acc = Some(acc.map_or(storage(d), |a| promote(a, d)));
    };
    for &o in operands {
        match o {
            Operand::Tensor(d) => fold(&mut dim, d),
            Operand::ZeroDim(d) => fold(&mut zero, d),
            Operand::Int => fold(&mut wrapped, Dtype::I64),
            Operand::Float => fold(&mut wrapped, Dtype::F32),
        }
    }
    combine(dim, combine(zero, wrapped)).unwrap_or(Dtype::F32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Dtype::*;
    use Operand::*;

    #[test]
    fn promote_types_as_pytorch() {
        assert_eq!(promote(Bf16, F16), F32);
        assert_eq!(promote(Bf16, F32), F32);
        assert_eq!(promote(I32, Bf16), Bf16);
        assert_eq!(promote(U8, I8), I16);
        assert_eq!(promote(I32, I64), I64);
        assert_eq!(promote(Bool, I8), I8);
        assert_eq!(promote(Tf32, F32), F32);
        assert_eq!(promote(F64, F32), F64);
    }

    #[test]
    fn result_type_as_pytorch() {
        // bf16 tensor * 0.125 stays bf16; an i32 tensor * 0.5 is float32.
        assert_eq!(result_type(&[Tensor(Bf16), Float]), Bf16);
        assert_eq!(result_type(&[Tensor(I32), Float]), F32);
        assert_eq!(result_type(&[Tensor(I32), Int]), I32);
        assert_eq!(result_type(&[Tensor(Bool), Int]), I64);
        // A 0-dim f32 tensor does not promote a bf16 tensor; a 0-dim float promotes an int.
        assert_eq!(result_type(&[Tensor(Bf16), ZeroDim(F32)]), Bf16);
        assert_eq!(result_type(&[Tensor(I32), ZeroDim(F16)]), F16);
        assert_eq!(result_type(&[Tensor(Bf16), Tensor(F32)]), F32);
        assert_eq!(result_type(&[ZeroDim(I32), Float]), F32);
    }
}
