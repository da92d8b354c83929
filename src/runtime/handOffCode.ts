/** /configurationerror code when a product of the provider has no host configured (spec 4). */
export const PRODUCT_HOST_MISSING = 'PRODUCT_HOST_MISSING';
