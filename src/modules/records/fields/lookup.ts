import { ValidationError } from '../../../shared/errors.js';
import type { FieldType } from './field-type.js';

export const lookupField: FieldType = {
  name: 'lookup',
  multiplicity: 'optional',
  settingKeys: ['table_id'],
  async parseSettings(raw, ctx, previous) {
    const tableId = raw.table_id ?? previous?.table_id;
    if (!Number.isInteger(tableId)) throw new ValidationError('Invalid field definition: table_id is required for lookup fields and must be an integer');
    if (previous && tableId !== previous.table_id) throw new ValidationError('Invalid field definition: the table_id of a lookup field cannot be changed');
    if (!(await ctx.isAccountTable(tableId as number))) throw new ValidationError(`Invalid field definition: table_id ${tableId} is not a table of this account`);
    return { table_id: tableId };
  },
  columnType: () => 'integer',
  titleCapable: false,
};
