import Lake
open Lake DSL

package MoeTheory where
  leanOptions := #[⟨`autoImplicit, false⟩]

@[default_target]
lean_lib MoeTheory where
