/** The two fields every stored resource ends with, in this order. */
interface Exposer<Field> {
  expose(name: 'createdAt' | 'updatedAt', options: { type: 'DateTime' }): Field;
}

export const timestamps = <Field>(t: Exposer<Field>) => ({
  createdAt: t.expose('createdAt', { type: 'DateTime' }),
  updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
});
