// TypeBox shorthands every signal schema uses, so that "a nullable string of at most 64
// characters" is written one way on both sides.

import { Type, type TSchema } from '@sinclair/typebox'

export const Bool = Type.Boolean()
export const Num = Type.Number()
export const Int = Type.Integer()
export const NNum = Type.Union([Type.Number(), Type.Null()])
export const NBool = Type.Union([Type.Boolean(), Type.Null()])
export const Str = (max: number) => Type.String({ maxLength: max })
export const NStr = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()])
/** A list of at most `items` strings of at most `max` characters. */
export const List = (max: number, items: number) => Type.Array(Type.String({ maxLength: max }), { maxItems: items })
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()])
